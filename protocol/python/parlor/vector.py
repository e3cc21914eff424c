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

Several servers: endpoint may be a list, and the envs are spread over the
servers in that order, as evenly as they go (the first num_envs % servers
get one more), one vector env on each. A step sends one batch to every
server before it waits for any reply, so the servers step in parallel,
and the replies are joined in env order. Seeds: the first server's envs
start as a one-server VectorEnv's would (env i from derive_seed(seed, i)),
server k's (k >= 1) as a vector env reset with derive_seed(seed,
num_envs + k) would. Actions are checked against the last legal masks
before anything is sent, so an illegal action still moves no env.
"""

import numpy as np

from ._remote import Remote, derive_seed
from .client import (DEFAULT_CONNECT_TIMEOUT, DEFAULT_TIMEOUT, ERROR_CODES,
                     ParlorError)
from .spaces import Box, Discrete, MultiDiscrete, VectorEnvBase
from .wire import read_batch

ZERO_COPY_MIN = 100_000  # reply bytes from which decoding in place pays

try:
    from gymnasium.vector import AutoresetMode
    _SAME_STEP = AutoresetMode.SAME_STEP
except ImportError:
    _SAME_STEP = "same-step"


def spread(num_envs, servers):
    """How many of num_envs envs each of servers servers holds."""
    return [num_envs // servers + (k < num_envs % servers)
            for k in range(servers)]


def _join(parts):
    """Several servers' (obs, reward, terminated, truncated, info) as one,
    in env order."""
    if len(parts) == 1:
        return parts[0]
    out = [np.concatenate([p[i] for p in parts]) for i in range(4)]
    info = {}
    for key, first in parts[0][4].items():
        values = [p[4][key] for p in parts]
        if isinstance(first, np.ndarray):
            info[key] = np.concatenate(values)
        else:
            info[key] = [x for v in values for x in v]
    return (*out, info)


class VectorEnv(VectorEnvBase):
    """VectorEnv(game, num_envs, opponents="random", seat=0, max_steps=0,
    endpoint=None); other options as for Env. endpoint may be a list of
    servers to spread the envs over, or client a list of Clients (one per
    server, e.g. each with its CURVE keys), which stay the caller's. With one
    server, arrays returned are read-only views of the last reply's bytes
    (copy what must be changed); with several, fresh arrays. Illegal
    actions always raise here (the servers or this class check the whole
    batch); gymnasium's SyncVectorEnv and AsyncVectorEnv over parlor.Env
    offer Env's illegal rule."""

    metadata = {"render_modes": [], "autoreset_mode": _SAME_STEP}

    def __init__(self, game="spoil_five", num_envs=64, *,
                 opponents="random", seat=0, max_steps=0,
                 endpoint=None, client=None, timeout=DEFAULT_TIMEOUT,
                 connect_timeout=DEFAULT_CONNECT_TIMEOUT, view=False,
                 names=False):
        if isinstance(client, (list, tuple)):  # one Client per server
            clients, endpoints = list(client), [c.endpoint for c in client]
        else:
            endpoints = ([endpoint] if endpoint is None or
                         isinstance(endpoint, str) else list(endpoint))
            clients = [client] * len(endpoints)
        if not endpoints or (client is not None and len(endpoints) > 1
                             and not isinstance(client, (list, tuple))):
            raise ValueError("endpoint must be one endpoint, or a non-empty "
                             "list of them (and then client a list of "
                             "Clients, or None)")
        if len(endpoints) > num_envs:
            raise ValueError(f"{num_envs} envs cannot be spread over "
                             f"{len(endpoints)} servers: each needs one")
        self._parts = []
        try:
            sizes = spread(num_envs, len(endpoints))
            for ep, c, n in zip(endpoints, clients, sizes):
                self._parts.append(Remote(
                    game, endpoint=ep, client=c, timeout=timeout,
                    connect_timeout=connect_timeout, n=n,
                    opponents=opponents, seat=seat, max_steps=max_steps))
            self._check_alike()
        except BaseException:
            self.close()
            raise
        self._r = self._parts[0]
        r = self._r.shape
        self.game = self._r.spec
        self.num_envs = num_envs
        self.players = r.players
        self.learner = self._r.learner
        low, high = self._r.obs_low, self._r.obs_high
        self.single_observation_space = Box(low, high, r.row(), np.float32)
        self.single_action_space = Discrete(r.num_actions)
        self.observation_space = Box(low, high, (num_envs,) + r.row(),
                                     np.float32)
        acts = (num_envs,) if r.rows == 1 else (num_envs, r.rows)
        self.action_space = MultiDiscrete(np.full(acts, r.num_actions))
        self._view = view
        self._names = names
        # A batch reply's size, as PROTOCOL.md §1 gives it.
        reply = r.n * (r.rows * (4 * r.obs_size + r.mask_bytes) +
                       8 * r.rewards + 14)
        self._zero_copy = reply >= ZERO_COPY_MIN
        self._masks = None  # the last legal masks, with several servers
        self.closed = False

    def _check_alike(self):
        first = self._parts[0]
        for part in self._parts[1:]:
            if part.spec != first.spec or any(
                    getattr(part.shape, key) != getattr(first.shape, key)
                    for key in part.shape.__slots__ if key != "n"):
                raise ParlorError(
                    ERROR_CODES["BAD_SPEC"], "BAD_SPEC",
                    f"{part.client.endpoint} makes {part.spec} with other "
                    f"sizes than the first server's {first.spec} (another "
                    f"parlor version?)")

    @property
    def client(self):
        """The Client this env talks through (the first server's)."""
        return self._r.client

    @property
    def clients(self):
        """Every server's Client, in env order."""
        return [part.client for part in self._parts]

    @property
    def env_id(self):
        """The server's id of this vector env (None once closed; the first
        server's when there are several)."""
        return self._r.id

    def reset(self, *, seed=None, options=None):
        """Starts every env (env i's deal derives from seed and i on the
        server). Returns (obs, info); options is unused."""
        # Not Gymnasium's own reset: it differs between versions (0.29's
        # calls reset_async), and the server deals from seed anyway.
        played = self._r.next_seed(seed)
        for part in self._parts:
            part.require_open()
        ids = [part.client.send_reset(
            part.id, derive_seed(played, self.num_envs + k) if k else played,
            view=self._view, names=self._names)
            for k, part in enumerate(self._parts)]
        obs, _, _, _, info = self._gather(ids)
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
        for part in self._parts:
            part.require_open()
        acts = np.ascontiguousarray(array, dtype="<i4")
        if len(self._parts) == 1:  # the server checks the batch itself
            rid = self.client.send_step(self._r.id, actions=acts.tobytes(),
                                        view=self._view, names=self._names)
            return self._gather([rid])
        flat = self._check_legal(acts)
        ids, start = [], 0
        for part in self._parts:
            end = start + part.shape.n * part.shape.rows
            ids.append(part.client.send_step(
                part.id, actions=flat[start:end].tobytes(),
                view=self._view, names=self._names))
            start = end
        return self._gather(ids)

    def _gather(self, ids):
        """Every server's reply to its request ids[k], read and joined;
        the first error is raised once every server has answered."""
        parts, error = [], None
        for part, rid in zip(self._parts, ids):
            try:
                batch = part.client.receive(rid, self._zero_copy)
                parts.append(read_batch(batch, part.shape))
            except ParlorError as e:
                error = error or e
        if error:
            raise error
        out = _join(parts)
        if len(self._parts) > 1:
            self._masks = out[4]["action_mask"]
        return out

    def _check_legal(self, acts):
        """With several servers: the actions as one flat array, once they
        are known to be one legal action per row of the last masks."""
        want = self.action_space.shape
        if acts.shape != want and acts.size != int(np.prod(want)):
            raise ParlorError(ERROR_CODES["BAD_BATCH"], "BAD_BATCH",
                              f"{acts.size} actions for a batch of shape "
                              f"{want}")
        flat = acts.reshape(-1)
        if self._masks is None:
            raise ParlorError(ERROR_CODES["STATE"], "STATE",
                              "step before reset")
        rows = self._masks.reshape(flat.size, -1)
        inside = (flat >= 0) & (flat < rows.shape[1])
        legal = inside.copy()
        legal[inside] = rows[inside.nonzero()[0], flat[inside]] != 0
        legal |= ~rows.any(axis=1)  # a seat not to act: the server's call
        if not legal.all():
            row = int(np.flatnonzero(~legal)[0])
            env = row // (flat.size // self.num_envs)
            raise ParlorError(ERROR_CODES["ILLEGAL_ACTION"],
                              "ILLEGAL_ACTION",
                              f"env {env}: action {int(flat[row])} is not "
                              f"legal there; no env moved")
        return flat

    def close(self, **kwargs):
        """Frees the envs on the servers (and the connections if they are
        the env's own). Idempotent."""
        for part in getattr(self, "_parts", ()):  # Gymnasium's __del__
            part.close()                          # calls this even when
        self.closed = True                        # __init__ failed
