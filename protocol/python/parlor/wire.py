"""The wire format: encoding requests and reading replies into numpy.

A request is one msgpack map whose keys come in the order v, id, type, then
the fields in catalogue order (protocol/messages.def); the golden fixtures
of tests/protocol/fixtures are encoded byte for byte this way. Replies'
bins become arrays over the reply's own bytes (np.frombuffer: no copy,
read-only). A legal mask travels as a bitset, mask_bytes bytes per row,
bit a of byte a // 8 set (least significant first) when action a is legal;
it is handed out as int8 0/1 per action, the form Gymnasium's
Discrete.sample(mask=...) takes. Nothing here does input/output.
"""

import msgpack
import numpy as np

_PACKER = msgpack.Packer(use_bin_type=True)
# Parsed once: np.frombuffer is measurably slower given dtype strings.
_F32, _F64, _I32, _U32 = (np.dtype(t) for t in ("<f4", "<f8", "<i4", "<u4"))
_U8, _I8, _BOOL = np.dtype(np.uint8), np.dtype(np.int8), np.dtype(np.bool_)


def encode_request(version, id_, type_, fields):
    """The bytes of request type_ with header v=version, id=id_ and fields
    (a dict, in its order)."""
    msg = {"v": version, "id": id_, "type": type_}
    msg.update(fields)
    return _PACKER.pack(msg)


def decode_reply(data):
    """The reply map in data (bin fields as bytes, strs as str); ValueError
    when data is not one msgpack map."""
    reply = msgpack.unpackb(data, raw=False)
    if not isinstance(reply, dict):
        raise ValueError("a reply must be a msgpack map")
    return reply


def f32(blob):
    """A float32 little-endian blob as a read-only array (no copy)."""
    return np.frombuffer(blob, _F32)


def f64(blob):
    """A float64 little-endian blob as a read-only array (no copy)."""
    return np.frombuffer(blob, _F64)


class Shape:
    """The sizes that reading an env's replies takes, from its make reply:
    n, players, num_actions, mask_bytes, obs_size, rows, rewards."""

    __slots__ = ("n", "players", "num_actions", "mask_bytes", "obs_size",
                 "rows", "rewards")

    def __init__(self, made):
        for key in self.__slots__:
            setattr(self, key, made[key])

    def row(self):
        """The shape of one env's observation: (obs_size,) with one row,
        (rows, obs_size) with one row per seat."""
        if self.rows == 1:
            return (self.obs_size,)
        return (self.rows, self.obs_size)


def mask_row(legal, num_actions):
    """The one mask row of the blob legal as int8, shape (num_actions,)."""
    return np.unpackbits(np.frombuffer(legal, _U8), count=num_actions,
                         bitorder="little").view(_I8)


def masks(legal, shape, count):
    """count mask rows of the blob legal as int8, shape (count,
    num_actions)."""
    raw = np.frombuffer(legal, _U8).reshape(count, shape.mask_bytes)
    bits = np.unpackbits(raw, axis=1, count=shape.num_actions,
                         bitorder="little")
    return bits.view(_I8)


def read_timestep(ts, shape):
    """The arrays of a timestep reply: (obs of shape (rows, obs_size),
    masks (rows, num_actions), reward (players,), returns (players,))."""
    obs = f32(ts["obs"]).reshape(shape.rows, shape.obs_size)
    return (obs, masks(ts["legal"], shape, shape.rows), f64(ts["reward"]),
            f64(ts["returns"]))


def read_batch(b, shape):
    """A batch reply as (obs, reward, terminated, truncated, info), shaped
    for n envs: obs (n,) + row, reward (n,) or (n, rewards), flags (n,)
    bool, and in info action_mask, seat, to_move, steps, final_obs_rows
    (the k ended envs' last rows, in env order), final_seat, final_obs
    (object array of n: those rows or None) and its mask _final_obs, plus
    views, legal_ids and legal_names when the reply has them."""
    n, row = shape.n, shape.row()
    reward = f64(b["reward"])
    if shape.rewards > 1:
        reward = reward.reshape(n, shape.rewards)
    terminated = np.frombuffer(b["terminated"], _BOOL)
    truncated = np.frombuffer(b["truncated"], _BOOL)
    act = (n,) if shape.rows == 1 else (n, shape.rows)
    info = {
        "action_mask": masks(b["legal"], shape, n * shape.rows).reshape(
            act + (shape.num_actions,)),
        "seat": np.frombuffer(b["seat"], _I32),
        "to_move": np.frombuffer(b["to_move"], _U32),
        "steps": np.frombuffer(b["steps"], _I32),
    }
    ended = terminated | truncated
    rows = f32(b["final_obs"]).reshape((-1,) + row)
    final = np.empty(n, dtype=object)  # all None
    if len(rows):
        for i, last in zip(ended.nonzero()[0].tolist(), rows):
            final[i] = last
    info.update(final_obs_rows=rows,
                final_seat=np.frombuffer(b["final_seat"], _I32),
                final_obs=final, _final_obs=ended)
    for key in ("views", "legal_ids", "legal_names"):
        if key in b:
            info[key] = b[key]
    obs = f32(b["obs"]).reshape((n,) + row)
    return obs, reward, terminated, truncated, info
