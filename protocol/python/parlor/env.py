"""Env: one game on a parlor server as a single-agent Gymnasium env.

The learner holds one seat and the server's built-in agents play the others
(opponents="random", or one agent spec per other seat). reset and step have
Gymnasium's signatures; info["action_mask"] is an int8 array of num_actions
entries, 1 where the action is legal now, ready for
env.action_space.sample(mask=...). Observations are float32 arrays read
straight from the reply's bytes (read-only: copy one to change it).
With gymnasium installed Env is a gymnasium.Env with real spaces; without,
it behaves the same with parlor.spaces' stand-ins.

An action the mask forbids ends the episode by default, the offender
getting the game's lowest return (illegal="terminate", PettingZoo's
convention for its classic games; Gymnasium's check_env steps unmasked
samples). illegal="raise" raises ParlorError ILLEGAL_ACTION instead and
changes nothing. Actions must be ints or numpy integers.
"""

import numpy as np

from ._remote import (RENDER_MODES, Remote, as_action, check_modes, forfeit,
                      illegal_error, render_text)
from .client import (DEFAULT_CONNECT_TIMEOUT, DEFAULT_TIMEOUT, ERROR_CODES,
                     ParlorError)
from .spaces import HAVE_GYMNASIUM, Box, Discrete, EnvBase
from .wire import f32, f64, mask_row


class Env(EnvBase):
    """Env(game, opponents="random", seat=0, max_steps=0, endpoint=None)
    makes the env on the server (endpoint None: $PARLOR_ENDPOINT, else
    tcp://127.0.0.1:5555).

    game is a spec ("spoil_five(players=4)"); max_steps > 0 truncates
    episodes; client lends an open Client instead of connecting anew;
    connect_timeout bounds the wait for a server that may not be there;
    view=True and names=True add the structured view and the legal actions'
    ids and names to every info; render_mode="ansi" makes render() return
    the learner's view as text; illegal is "terminate" or "raise" (above).
    reward is the learner's; info also holds every seat's "rewards" and
    "returns" (result so far), "seat", "steps" and "to_move", and
    "illegal": True on a step an illegal action ended. Call close() (or use
    a with block) to free the env.
    """

    # render_fps: the pace at which a person can follow the text frames.
    metadata = {"render_modes": RENDER_MODES, "render_fps": 4}

    def __init__(self, game="spoil_five", *, opponents="random", seat=0,
                 max_steps=0, endpoint=None, client=None,
                 timeout=DEFAULT_TIMEOUT,
                 connect_timeout=DEFAULT_CONNECT_TIMEOUT, view=False,
                 names=False, render_mode=None, illegal="terminate"):
        if not opponents:
            raise ValueError("Env is single-agent and needs opponents; "
                             "AECEnv and ParallelEnv drive every seat")
        check_modes(illegal, render_mode)
        self._r = Remote(game, endpoint=endpoint, client=client,
                         timeout=timeout, connect_timeout=connect_timeout,
                         opponents=opponents, seat=seat,
                         max_steps=max_steps)
        self.game = self._r.spec
        self.seat = self._r.learner
        self.players = self._r.shape.players
        self.opponents = self._r.made["opponents"]
        self.observation_space = Box(self._r.obs_low, self._r.obs_high,
                                     (self._r.shape.obs_size,), np.float32)
        self.action_space = Discrete(self._r.shape.num_actions)
        self.render_mode = render_mode
        self.illegal = illegal
        self._view = view or render_mode == "ansi"
        self._names = names
        self._obs = self._info = None  # the current timestep
        self._over = True              # no episode to step

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
        Returns (obs, info); info["seed"] is the deal played, a
        numpy.uint64 (Gymnasium's vector envs stack infos into arrays)."""
        if HAVE_GYMNASIUM:
            super().reset(seed=seed)
        ts, played = self._r.reset_live(self._r.next_seed(seed), self._view,
                                        self._names)
        obs, info = self._read(ts)
        info["seed"] = np.uint64(played)
        return obs, info

    def step(self, action):
        """Plays the learner's action, then the opponents up to the
        learner's next decision. Returns (obs, reward, terminated,
        truncated, info). An illegal action ends the episode or raises, as
        illegal says; an action that is not an int or numpy integer raises
        TypeError, one outside the action space ValueError."""
        action = as_action(action, self.action_space.n)
        self._r.require_open()
        if self._over:
            raise ParlorError(ERROR_CODES["STATE"], "STATE",
                              "no episode is running (none yet, or it "
                              "ended): call reset() first")
        if not self._info["action_mask"][action]:
            if self.illegal == "raise":
                raise illegal_error(action, self._info["action_mask"],
                                    f"seat {self.seat}")
            return self._forfeit()
        ts = self._r.client.step(self._r.id, action, view=self._view,
                                 names=self._names)
        obs, info = self._read(ts)
        return (obs, float(info["rewards"][self.seat]),
                bool(ts["terminated"]), bool(ts["truncated"]), info)

    def render(self):
        """With render_mode "ansi", the learner's current view as text
        (None before the first reset); with no render mode, None."""
        if self.render_mode is None or self._info is None:
            return None
        return render_text(self._r.desc, self._info.get("view"))

    def close(self):
        """Frees the env on the server (and the connection if it is the
        env's own). Idempotent; stepping a closed env raises
        ParlorClosed."""
        self._r.close()

    def _forfeit(self):
        """Ends the episode on an illegal action (illegal="terminate")."""
        rewards, returns = forfeit(self._info["returns"], self.seat,
                                   self._r.ret_low)
        info = dict(self._info, rewards=rewards, returns=returns, to_move=0,
                    steps=self._info["steps"] + 1, illegal=True,
                    action_mask=np.zeros_like(self._info["action_mask"]))
        self._info, self._over = info, True
        return self._obs, float(rewards[self.seat]), True, False, info

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
        self._obs, self._info = f32(ts["obs"]), info
        self._over = bool(ts["terminated"] or ts["truncated"])
        return self._obs, info
