"""Env: one game on a parlor server as a single-agent Gymnasium env.

The learner holds one seat and the server's built-in agents play the others
(opponents="random", or one agent spec per other seat). reset and step have
Gymnasium's signatures; info["action_mask"] is an int8 array of num_actions
entries, 1 where the action is legal now, ready for
env.action_space.sample(mask=...). Observations are float32 arrays read
straight from the reply's bytes (read-only: copy one to change it).
With gymnasium installed Env is a gymnasium.Env with real spaces; without,
it behaves the same with parlor.spaces' stand-ins.
"""

import numpy as np

from ._remote import Remote
from .client import DEFAULT_ENDPOINT, DEFAULT_TIMEOUT
from .spaces import HAVE_GYMNASIUM, Box, Discrete, EnvBase
from .wire import f32, f64, mask_row


class Env(EnvBase):
    """Env(game, opponents="random", seat=0, max_steps=0,
    endpoint="tcp://127.0.0.1:5555") makes the env on the server.

    game is a spec ("spoil_five(players=4)"); max_steps > 0 truncates
    episodes; client lends an open Client instead of connecting anew;
    view=True and names=True add the structured view and the legal actions'
    ids and names to every info. reward is the learner's; info also holds
    every seat's "rewards" and "returns" (result so far), "seat", "steps"
    and "to_move". Call close() (or use a with block) to free the env.
    """

    metadata = {"render_modes": []}

    def __init__(self, game="spoil_five", *, opponents="random", seat=0,
                 max_steps=0, endpoint=DEFAULT_ENDPOINT, client=None,
                 timeout=DEFAULT_TIMEOUT, view=False, names=False):
        if not opponents:
            raise ValueError("Env is single-agent and needs opponents; "
                             "AECEnv drives every seat")
        self._r = Remote(game, endpoint=endpoint, client=client,
                         timeout=timeout, opponents=opponents, seat=seat,
                         max_steps=max_steps)
        self.game = self._r.spec
        self.seat = self._r.learner
        self.players = self._r.shape.players
        self.opponents = self._r.made["opponents"]
        self.observation_space = Box(self._r.obs_low, self._r.obs_high,
                                     (self._r.shape.obs_size,), np.float32)
        self.action_space = Discrete(self._r.shape.num_actions)
        self._view = view
        self._names = names

    @property
    def client(self):
        """The Client this env talks through."""
        return self._r.client

    @property
    def env_id(self):
        """The server's id of this env (None once closed)."""
        return self._r.id

    def reset(self, *, seed=None, options=None):
        """Deals a new game: seed plays that deal (and seeds the stream of
        later resets' deals), None takes the stream's next. options is
        unused. A deal over before the learner's first move is skipped.
        Returns (obs, info); info["seed"] is the deal played."""
        if HAVE_GYMNASIUM:
            super().reset(seed=seed)
        ts, played = self._r.reset_live(self._r.next_seed(seed), self._view,
                                        self._names)
        obs, info = self._read(ts)
        info["seed"] = played
        return obs, info

    def step(self, action):
        """Plays the learner's action, then the opponents up to the
        learner's next decision. Returns (obs, reward, terminated,
        truncated, info). An illegal action raises ParlorError
        (ILLEGAL_ACTION) and changes nothing."""
        ts = self._r.client.step(self._r.id, int(action), view=self._view,
                                 names=self._names)
        obs, info = self._read(ts)
        return (obs, float(info["rewards"][self.seat]), ts["terminated"],
                ts["truncated"], info)

    def close(self):
        """Frees the env on the server (and the connection if it is the
        env's own). Idempotent."""
        self._r.close()

    def _read(self, ts):
        # The learner's one row: a single-agent env never has more.
        info = {
            "action_mask": mask_row(ts["legal"], self.action_space.n),
            "rewards": f64(ts["reward"]),
            "returns": f64(ts["returns"]),
            "seat": ts["seat"],
            "steps": ts["steps"],
            "to_move": ts["to_move"],
        }
        for key in ("view", "legal_ids", "legal_names"):
            if key in ts:
                info[key] = ts[key]
        return f32(ts["obs"]), info
