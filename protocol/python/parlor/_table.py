"""What AECEnv and ParallelEnv share: the client's picture of a multi-agent
env on a server, and the rounds of actions that move it.

A Table remembers every seat's latest observation (the server sends only
those of the seats it reports: the one to act, or all of them in a
simultaneous game) and current mask, the seats to act, the returns so far
and the end flags. play() takes one action per acting seat, checks each
against its mask on this side (so a refused joint round never leaves
half-sent actions behind), and sends one step: a single action when one
seat acts, a joint step when several do. An illegal action raises or
forfeits, as the env's illegal rule says (_remote.ILLEGAL_MODES).
"""

import numpy as np

from ._remote import (Remote, agent_names, as_action, check_modes, forfeit,
                      illegal_error, render_text)
from .client import DEFAULT_CONNECT_TIMEOUT, DEFAULT_TIMEOUT
from .spaces import Box, Dict, Discrete
from .wire import read_timestep


class Table:
    """A multi-agent env made on a server, as its agents see it."""

    def __init__(self, game, *, max_steps=0, endpoint=None, client=None,
                 timeout=DEFAULT_TIMEOUT,
                 connect_timeout=DEFAULT_CONNECT_TIMEOUT, view=False,
                 names=False, illegal="terminate", render_mode=None):
        check_modes(illegal, render_mode)
        self.remote = Remote(game, endpoint=endpoint, client=client,
                             timeout=timeout,
                             connect_timeout=connect_timeout,
                             max_steps=max_steps)
        r = self.shape = self.remote.shape
        self.names = agent_names(r.players)
        obs_space = Dict({
            "observation": Box(self.remote.obs_low, self.remote.obs_high,
                               (r.obs_size,), np.float32),
            "action_mask": Box(0, 1, (r.num_actions,), np.int8),
        })
        # One space object per agent, the same one on every call (both
        # PettingZoo checkers ask for that).
        self.observation_spaces = {a: obs_space for a in self.names}
        self.action_spaces = {a: Discrete(r.num_actions) for a in self.names}
        self.illegal = illegal
        self.view = view or render_mode == "ansi"
        self.want_names = names
        self.no_mask = np.zeros(r.num_actions, dtype=np.int8)
        self.no_mask.setflags(write=False)
        self.no_obs = np.zeros(r.obs_size, dtype=np.float32)
        self.no_obs.setflags(write=False)
        self.seed_played = None
        self._wipe()

    def _wipe(self):
        players = self.shape.players
        self.obs = [self.no_obs] * players
        self.masks = [self.no_mask] * players
        self.acting = []           # seats to act now, ascending
        self.reward = np.zeros(players)
        self.returns = np.zeros(players)
        self.terminated = self.truncated = False
        self.observer = 0          # the seat the server reported
        self.extra = {}            # view, legal_ids, legal_names of it
        self.offender = None       # seat whose illegal action ended it

    @property
    def over(self):
        return self.terminated or self.truncated

    def reset(self, seed):
        """Deals from seed (None: the stream's next; see Remote)."""
        ts, self.seed_played = self.remote.reset_live(
            self.remote.next_seed(seed), self.view, self.want_names)
        self._wipe()
        self._take(ts)

    def check(self, seat, action):
        """action (for acting seat) as an int, or None when it is illegal
        and illegal="terminate" (the caller then forfeits). Raises
        TypeError/ValueError for a non-action, ParlorError when illegal
        and illegal="raise"."""
        action = self.check_type(seat, action)
        if self.masks[seat][action]:
            return action
        if self.illegal == "raise":
            raise illegal_error(action, self.masks[seat], self.names[seat])
        return None

    def check_type(self, seat, action):
        """action as an int when it is one of the action space (see
        _remote.as_action), whatever the mask says."""
        return as_action(action, self.shape.num_actions,
                         f"action of {self.names[seat]}")

    def play(self, actions):
        """Sends actions (seat -> checked action, one per acting seat) as
        one step and reads the reply."""
        self.remote.require_open()
        client, env = self.remote.client, self.remote.id
        if len(self.acting) == 1:
            ts = client.step(env, actions[self.acting[0]], view=self.view,
                             names=self.want_names)
        else:
            # Seats not acting send -1, as PROTOCOL.md §7 asks.
            joint = [actions.get(s, -1) for s in range(self.shape.players)]
            ts = client.step(env, actions=joint, view=self.view,
                             names=self.want_names)
        self._take(ts)

    def forfeit(self, seat):
        """Ends the episode on seat's illegal action: its return drops to
        the game's lowest, the others keep theirs (PettingZoo's classic
        games do the same)."""
        self.reward, self.returns = forfeit(self.returns, seat,
                                            self.remote.ret_low)
        self.masks = [self.no_mask] * self.shape.players
        self.acting = []
        self.terminated, self.offender = True, seat

    def _take(self, ts):
        r = self.shape
        obs, masks, reward, returns = read_timestep(ts, r)
        seen = range(r.players) if r.rows > 1 else [ts["seat"]]
        self.masks = [self.no_mask] * r.players
        for row, seat in enumerate(seen):
            self.obs[seat] = obs[row]
            self.masks[seat] = masks[row]
        self.acting = [s for s in range(r.players) if ts["to_move"] >> s & 1]
        self.reward, self.returns = reward, returns
        self.terminated = bool(ts["terminated"])
        self.truncated = bool(ts["truncated"])
        self.observer = ts["seat"]
        self.extra = {k: ts[k] for k in ("view", "legal_ids", "legal_names")
                      if k in ts}

    def info(self, seat):
        """The info dict of seat: its mask, the returns so far, its seat,
        the observer's extras, and "illegal" for an offender."""
        info = {"action_mask": self.masks[seat], "returns": self.returns,
                "seat": seat}
        if seat == self.observer:
            info.update(self.extra)
        if seat == self.offender:
            info["illegal"] = True
        return info

    def observation(self, seat):
        """seat's latest observation and current mask, as a dict."""
        return {"observation": self.obs[seat], "action_mask": self.masks[seat]}


class TableEnv:
    """What AECEnv and ParallelEnv share around their Table (self._t):
    the per-agent spaces, the connection, rendering and closing."""

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    @property
    def client(self):
        """The Client this env talks through."""
        return self._t.remote.client

    @property
    def env_id(self):
        """The server's id of this env (None once closed)."""
        return self._t.remote.id

    @property
    def seed_played(self):
        """The deal the last reset played."""
        return self._t.seed_played

    def render(self):
        """With render_mode "ansi", the observing seat's view as text."""
        if self.render_mode is None:
            return None
        return render_text(self._t.remote.desc, self._t.extra.get("view"))

    def close(self):
        """Frees the env on the server (and the connection if it is the
        env's own). Idempotent; stepping it afterwards raises
        ParlorClosed."""
        self._t.remote.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
