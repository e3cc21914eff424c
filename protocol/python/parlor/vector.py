"""VectorEnv: num_envs envs of one game stepped by one message per batch.

The server answers every reset and step of a vector env with one batch
reply laid out as columns (one bin per field for the whole batch); each
column becomes a numpy array over the reply's bytes without being copied
(wire.read_batch). Episodes that end auto-reset on the server in the same
step: obs already shows the next episode, and the final observations of
the envs that ended are in info["final_obs"] (Gymnasium's same-step
convention: an object array with None elsewhere, "_final_obs" its mask)
and, packed in env order, in info["final_obs_rows"] with
info["final_seat"].

Single-agent (opponents given, the default): actions are the learner's,
rewards have shape (num_envs,). Multi-agent (opponents=None): each env's
action is for its observing seat info["seat"] and rewards have shape
(num_envs, players): self-play in a batch.
"""

import numpy as np

from ._remote import Remote
from .client import DEFAULT_CONNECT_TIMEOUT, DEFAULT_TIMEOUT
from .spaces import Box, Discrete, MultiDiscrete, VectorEnvBase
from .wire import read_batch

ZERO_COPY_MIN = 100_000  # reply bytes from which decoding in place pays

try:
    from gymnasium.vector import AutoresetMode
    _SAME_STEP = AutoresetMode.SAME_STEP
except ImportError:
    _SAME_STEP = "same-step"


class VectorEnv(VectorEnvBase):
    """VectorEnv(game, num_envs, opponents="random", seat=0, max_steps=0,
    endpoint=None); other options as for Env. Arrays returned are
    read-only views of the last reply's bytes (copy what must be changed).
    Illegal actions always raise here (the server checks the whole batch);
    gymnasium's SyncVectorEnv and AsyncVectorEnv over parlor.Env offer
    Env's illegal rule."""

    metadata = {"render_modes": [], "autoreset_mode": _SAME_STEP}

    def __init__(self, game="spoil_five", num_envs=64, *,
                 opponents="random", seat=0, max_steps=0,
                 endpoint=None, client=None, timeout=DEFAULT_TIMEOUT,
                 connect_timeout=DEFAULT_CONNECT_TIMEOUT, view=False,
                 names=False):
        self._r = Remote(game, endpoint=endpoint, client=client,
                         timeout=timeout, connect_timeout=connect_timeout,
                         n=num_envs, opponents=opponents, seat=seat,
                         max_steps=max_steps)
        r = self._r.shape
        self.game = self._r.spec
        self.num_envs = r.n
        self.players = r.players
        self.learner = self._r.learner
        low, high = self._r.obs_low, self._r.obs_high
        self.single_observation_space = Box(low, high, r.row(), np.float32)
        self.single_action_space = Discrete(r.num_actions)
        self.observation_space = Box(low, high, (r.n,) + r.row(),
                                     np.float32)
        acts = (r.n,) if r.rows == 1 else (r.n, r.rows)
        self.action_space = MultiDiscrete(np.full(acts, r.num_actions))
        self._view = view
        self._names = names
        # A batch reply's size, as PROTOCOL.md §1 gives it.
        reply = r.n * (r.rows * (4 * r.obs_size + r.mask_bytes) +
                       8 * r.rewards + 14)
        self._zero_copy = reply >= ZERO_COPY_MIN
        self.closed = False

    @property
    def client(self):
        """The Client this env talks through."""
        return self._r.client

    @property
    def env_id(self):
        """The server's id of this vector env (None once closed)."""
        return self._r.id

    def reset(self, *, seed=None, options=None):
        """Starts every env (env i's deal derives from seed and i on the
        server). Returns (obs, info); options is unused."""
        # Not Gymnasium's own reset: it differs between versions (0.29's
        # calls reset_async), and the server deals from seed anyway.
        played = self._r.next_seed(seed)
        self._r.require_open()
        batch = self._r.client.reset(self._r.id, played, view=self._view,
                                     names=self._names,
                                     zero_copy=self._zero_copy)
        obs, _, _, _, info = read_batch(batch, self._r.shape)
        info["seed"] = played
        return obs, info

    def step(self, actions):
        """Steps every env with its action (shape (num_envs,), or
        (num_envs, players) when every seat has a row). An illegal action
        raises ParlorError (ILLEGAL_ACTION naming the env) and no env
        moves; actions that are not integers raise TypeError. Returns
        (obs, rewards, terminated, truncated, info)."""
        array = np.asarray(actions)
        if not np.issubdtype(array.dtype, np.integer):
            raise TypeError(f"actions must be integers, not {array.dtype} "
                            f"(values {array.ravel()[:4].tolist()} ...)")
        n = self.single_action_space.n
        if array.size and (array.min() < -1 or array.max() >= n):
            raise ValueError(f"actions must lie in 0..{n - 1} (-1 for a "
                             f"seat not to act)")
        self._r.require_open()
        blob = np.ascontiguousarray(array, dtype="<i4").tobytes()
        batch = self._r.client.step(self._r.id, actions=blob,
                                    view=self._view, names=self._names,
                                    zero_copy=self._zero_copy)
        return read_batch(batch, self._r.shape)

    def close(self, **kwargs):
        """Frees the envs on the server (and the connection if it is the
        env's own). Idempotent."""
        if hasattr(self, "_r"):  # Gymnasium's __del__ calls this even
            self._r.close()      # when __init__ failed
        self.closed = True
