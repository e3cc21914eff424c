"""What the env classes share: one env or vector env held on a server.

A Remote describes and makes the env through a Client (its own, or one the
caller lends), keeps the sizes its replies are read with (wire.Shape), and
draws episode seeds the Gymnasium way: reset(seed=s) plays deal s, and each
reset() after it plays the next seed of the stream derive_seed(s, k), k =
1, 2, ... (a deal over before anyone acts is skipped and takes a k too).
That is the server's own rule for a vector env's auto-resets (env/venv.h),
so a plain env reset with env i's seed replays env i of a vector env,
episode after episode.
"""

import secrets

import numpy as np

from .client import (DEFAULT_CONNECT_TIMEOUT, DEFAULT_TIMEOUT, ERROR_CODES,
                     Client, ParlorClosed, ParlorError)
from .wire import Shape

CLOSE_TIMEOUT = 5.0   # seconds close() waits for the server at most
SKIP_MAX = 1000       # deals in a row over before any decision: give up
HISTORY_SHOWN = 8     # last moves of the view's history that render shows
_M64 = (1 << 64) - 1

# What an env does with an action its mask forbids (see docs/rl.md):
# "terminate" ends the episode and gives the offender the game's lowest
# return (PettingZoo's classic-games convention), "raise" raises
# ParlorError ILLEGAL_ACTION and changes nothing.
ILLEGAL_MODES = ("terminate", "raise")
RENDER_MODES = ["ansi"]  # render() returns the observing seat's view as text


def _splitmix(state):
    """One step of splitmix64 (common/rng.h): (new state, output)."""
    state = (state + 0x9E3779B97F4A7C15) & _M64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return state, z ^ (z >> 31)


def derive_seed(master, index):
    """The server's rng_derive: an independent seed from master and index.
    A vector env reset with seed s starts env i from derive_seed(s, i) and
    gives its k-th auto-reset derive_seed(derive_seed(s, i), k)."""
    state = (master ^ (index * 0xD1342543DE82EF95)) & _M64
    state, _ = _splitmix(state)
    return _splitmix(state)[1]


def agent_names(players):
    """PettingZoo-style names of the seats."""
    return [f"player_{seat}" for seat in range(players)]


def check_modes(illegal, render_mode):
    """Refuses an unknown illegal-action rule or render mode."""
    if illegal not in ILLEGAL_MODES:
        raise ValueError(f"illegal={illegal!r}: give one of "
                         f"{', '.join(map(repr, ILLEGAL_MODES))}")
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode={render_mode!r}: give None or one of "
                         f"{', '.join(map(repr, RENDER_MODES))}")


def as_action(action, num_actions, who="action"):
    """action as a Python int: ints and numpy integer scalars (0-d integer
    arrays too) in 0..num_actions-1 only. TypeError for anything else
    (floats, bools, strings, None), ValueError when out of range."""
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(
            action, (int, np.integer)):
        raise TypeError(f"{who} must be an int or a numpy integer in "
                        f"0..{num_actions - 1}, not {type(action).__name__} "
                        f"{action!r}")
    action = int(action)
    if not 0 <= action < num_actions:
        raise ValueError(f"{who} {action} is outside the action space "
                         f"0..{num_actions - 1}")
    return action


def illegal_error(action, mask, who):
    """The ParlorError of an action that mask (int8) forbids; like the
    server's, it lists the first legal ids."""
    legal = np.flatnonzero(mask)
    shown = " ".join(map(str, legal[:12].tolist()))
    more = " ..." if legal.size > 12 else ""
    return ParlorError(ERROR_CODES["ILLEGAL_ACTION"], "ILLEGAL_ACTION",
                       f"action {action} is not legal for {who} now "
                       f"(legal: {shown}{more})")


def forfeit(returns, seat, ret_low):
    """What an illegal move under illegal="terminate" scores: (rewards,
    returns) after it, where the offender's return drops to ret_low (the
    game's lowest) and the others keep theirs, PettingZoo's convention."""
    rewards = np.zeros(len(returns))
    rewards[seat] = ret_low - returns[seat]
    after = np.array(returns, dtype=np.float64)
    after[seat] = ret_low
    return rewards, after


def _text(value):
    if value is None:
        return "-"
    if isinstance(value, (list, tuple)):
        return " ".join(_text(v) if not isinstance(v, (list, tuple))
                        else "(" + _text(v) + ")" for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}={_text(v)}" for k, v in value.items())
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def render_text(desc, view):
    """The structured view (PROTOCOL.md §6.4) as text: a title line, then
    one "key: value" line per view key (the history's last moves only)."""
    if view is None:
        return None
    lines = [f"{desc['long_name']} ({view.get('game', desc['spec'])}), "
             f"seat {view.get('seat')}'s view"]
    for key, value in view.items():
        if key == "game":
            continue
        if key == "history" and len(value) > HISTORY_SHOWN:
            value = ["..."] + list(value[-HISTORY_SHOWN:])
        lines.append(f"{key}: {_text(value)}")
    return "\n".join(lines) + "\n"


class Remote:
    """An env (n=None) or vector env of n envs made on a server."""

    def __init__(self, game, *, endpoint=None, client=None,
                 timeout=DEFAULT_TIMEOUT,
                 connect_timeout=DEFAULT_CONNECT_TIMEOUT, n=None,
                 opponents=None, seat=0, max_steps=0):
        self.own_client = client is None
        self.client = client or Client(endpoint, timeout=timeout,
                                       connect_timeout=connect_timeout)
        self.id = None
        try:
            self.desc = self.client.describe(game)
            self.made = self.client.make(
                game, n=n, opponents=opponents or None,
                seat=seat if opponents else None,
                max_steps=max_steps or None)
        except BaseException:
            self._drop_client()
            raise
        self.id = self.made["env"]
        self.spec = self.made["spec"]
        self.learner = self.made["learner"]
        self.shape = Shape(self.made)
        self.obs_low = self.desc["obs_low"]
        self.obs_high = self.desc["obs_high"]
        self.ret_low = float(self.desc["ret_low"])
        self.base = None  # the seed the stream derives from
        self.k = 0        # seeds drawn from it so far

    def next_seed(self, seed=None):
        """The seed of the next episode: seed itself when given (which
        restarts the stream from it), else the stream's next; before any
        seed was given the stream starts from a random one."""
        if seed is not None:
            seed = int(seed)
            if not 0 <= seed <= _M64:
                raise ValueError(f"seed {seed} is not a 64-bit unsigned "
                                 f"integer")
            self.base, self.k = seed, 0
            return seed
        if self.base is None:
            self.base, self.k = secrets.randbits(64), 0
            return self.base
        self.k += 1
        return derive_seed(self.base, self.k)

    def require_open(self):
        """Raises ParlorClosed once the env is closed."""
        if self.id is None:
            raise ParlorClosed("this env is closed (close() freed it on the "
                               "server): make a new one")

    def reset_live(self, seed, view=False, names=False):
        """Resets a plain env from seed; a deal that is over before anyone
        acts (nothing to decide, no reward to credit) is skipped for the
        stream's next seed. Returns (reply, seed played)."""
        self.require_open()
        for _ in range(SKIP_MAX):
            ts = self.client.reset(self.id, seed, view=view, names=names)
            if not (ts["terminated"] or ts["truncated"]):
                return ts, seed
            seed = self.next_seed()
        raise ParlorError(ERROR_CODES["STATE"], "STATE",
                          f"{SKIP_MAX} deals in a row were over before any "
                          f"decision")

    def close(self):
        """Closes the env on the server (waiting CLOSE_TIMEOUT at most) and
        the client if it is ours. Idempotent; a server that is gone is
        not an error here, since it has dropped the env anyway."""
        if self.id is not None and not self.client.closed:
            saved = self.client.timeout
            self.client.set_timeout(min(saved or CLOSE_TIMEOUT,
                                        CLOSE_TIMEOUT))
            try:
                self.client.close_env(self.id)
            except ParlorError:
                pass
            finally:
                if not self.own_client:
                    self.client.set_timeout(saved)
        self.id = None
        self._drop_client()

    def _drop_client(self):
        if self.own_client:
            self.client.close()
