"""The wire format without a server: the shared golden fixtures of
tests/protocol/fixtures (encoded byte for byte, replies decoded as the
MANIFEST says), mask bitsets, the seed derivation, and the stand-in
spaces."""

import os
import unittest

import numpy as np

from helpers import FIXTURES
from parlor import ERROR_CODES, ParlorError
from parlor import derive_seed
from parlor.spaces import _Box, _Dict, _Discrete, _MultiDiscrete
from parlor.wire import (Shape, decode_reply, encode_request, masks,
                         read_batch, read_timestep)

ENV = (1 << 32) | 1  # the env id the fixtures use


def fixture(name):
    with open(os.path.join(FIXTURES, name + ".msgpack"), "rb") as f:
        return f.read()


def shape(**kw):
    made = {"n": 1, "players": 2, "num_actions": 3, "mask_bytes": 8,
            "obs_size": 4, "rows": 1, "rewards": 2}
    made.update(kw)
    return Shape(made)


@unittest.skipUnless(os.path.isdir(FIXTURES), "no golden fixtures")
class GoldenFixtures(unittest.TestCase):
    """Every client library must encode the valid requests byte for byte
    and read the replies the same way (make_fixtures.py)."""

    def test_manifest_lists_every_file(self):
        with open(os.path.join(FIXTURES, "MANIFEST")) as f:
            names = [line.split()[0] for line in f if line[0] != "#"]
        on_disk = sorted(n[:-8] for n in os.listdir(FIXTURES)
                         if n.endswith(".msgpack"))
        self.assertEqual(sorted(names), on_disk)

    def test_requests_encode_byte_for_byte(self):
        # The requests as the client's methods build them: the fields in
        # catalogue order (Client.make, reset, step send them so).
        i32 = np.array([0, 2, -1, 54], "<i4").tobytes()
        cases = {
            "hello_request": (1, "hello", {"client": "fixture"}),
            "describe_request": (2, "describe", {"game": "dice"}),
            "make_request": (3, "make", {
                "game": "thirty_one(players=2)", "n": 4,
                "opponents": "random", "seat": 1, "max_steps": 200}),
            "reset_request": (4, "reset", {"env": ENV, "seed": 7,
                                           "view": True, "names": False}),
            "step_action_request": (5, "step", {"env": ENV, "action": 3}),
            "step_actions_bin_request": (6, "step", {"env": ENV,
                                                     "actions": i32}),
            "step_actions_array_request": (7, "step", {
                "env": ENV, "actions": [0, 2, -1, 54]}),
            "close_request": (8, "close", {"env": ENV}),
            "ping_request": (9, "ping", {}),
        }
        for name, (id_, type_, fields) in cases.items():
            with self.subTest(name):
                self.assertEqual(encode_request(1, id_, type_, fields),
                                 fixture(name))
        self.assertEqual(encode_request(7, 10, "hello", {}),
                         fixture("hello_newer_request"))

    def test_timestep_reply(self):
        ts = decode_reply(fixture("timestep_reply"))
        self.assertEqual((ts["type"], ts["id"], ts["to_move"], ts["seat"]),
                         ("timestep", 5, 1, 0))
        obs, mask, reward, returns = read_timestep(ts, shape())
        np.testing.assert_array_equal(obs, [[0.0, 1.0, 0.5, -2.0]])
        # legal byte 0x05: bits 0 and 2, i.e. actions 0 and 2 of 3.
        np.testing.assert_array_equal(mask, [[1, 0, 1]])
        self.assertEqual(mask.dtype, np.int8)
        np.testing.assert_array_equal(reward, [1.0, -1.0])
        np.testing.assert_array_equal(returns, [1.0, -1.0])

    def test_batch_reply(self):
        b = decode_reply(fixture("batch_reply"))
        obs, reward, term, trunc, info = read_batch(
            b, shape(n=2, obs_size=2, rewards=1))
        np.testing.assert_array_equal(obs, [[1, 2], [3, 4]])
        # Env 0's mask byte 0x01 is action 0; env 1's 0x06 actions 1, 2.
        np.testing.assert_array_equal(info["action_mask"],
                                      [[1, 0, 0], [0, 1, 1]])
        np.testing.assert_array_equal(reward, [0.0, 1.0])
        np.testing.assert_array_equal(term, [False, True])
        np.testing.assert_array_equal(trunc, [False, False])
        np.testing.assert_array_equal(info["steps"], [3, 0])
        np.testing.assert_array_equal(info["final_obs_rows"], [[5, 6]])
        np.testing.assert_array_equal(info["final_seat"], [0])
        self.assertIsNone(info["final_obs"][0])
        np.testing.assert_array_equal(info["final_obs"][1], [5, 6])
        np.testing.assert_array_equal(info["_final_obs"], [False, True])

    def test_batch_columns_are_not_copied(self):
        b = decode_reply(fixture("batch_reply"))
        obs = read_batch(b, shape(n=2, obs_size=2, rewards=1))[0]
        owner = obs
        while isinstance(owner, np.ndarray):
            owner = owner.base
        self.assertIs(owner, b["obs"])  # a view of the reply's own bytes
        self.assertFalse(obs.flags.writeable)

    def test_error_reply(self):
        err = ParlorError.from_reply(decode_reply(fixture("error_reply")))
        self.assertEqual((err.code, err.name), (10, "ILLEGAL_ACTION"))
        self.assertEqual(ERROR_CODES[err.name], err.code)
        self.assertIn("not legal", err.message)

    def test_decode_refuses_a_non_map(self):
        with self.assertRaises(ValueError):
            decode_reply(fixture("bad_not_a_map"))


class Masks(unittest.TestCase):
    def test_bits_past_the_first_word(self):
        # 111 actions take two words; action 70 is bit 6 of byte 8.
        row = bytearray(16)
        row[8] = 1 << 6
        row[0] = 1
        m = masks(bytes(row), shape(num_actions=111, mask_bytes=16), 1)
        self.assertEqual(m.shape, (1, 111))
        self.assertEqual(np.flatnonzero(m[0]).tolist(), [0, 70])


class SeedDerivation(unittest.TestCase):
    def test_splitmix_reference_values(self):
        # rng_derive(0, 0) is the second splitmix64 output from state 0;
        # splitmix64's published outputs from seed 0 are
        # 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, ...
        self.assertEqual(derive_seed(0, 0), 0x6E789E6AA1B965F4)

    def test_index_changes_the_seed(self):
        seeds = {derive_seed(42, i) for i in range(100)}
        self.assertEqual(len(seeds), 100)


class FallbackSpaces(unittest.TestCase):
    def test_discrete_sample_honours_mask(self):
        space = _Discrete(5, seed=3)
        mask = np.array([0, 1, 0, 1, 0], np.int8)
        draws = {space.sample(mask=mask) for _ in range(200)}
        self.assertEqual(draws, {1, 3})
        self.assertTrue(space.contains(4))
        self.assertFalse(space.contains(5))
        self.assertIn(np.int64(2), space)

    def test_box(self):
        box = _Box(0.0, 1.0, (3,), np.float32, seed=1)
        x = box.sample()
        self.assertEqual((x.shape, x.dtype), ((3,), np.float32))
        self.assertTrue(box.contains(x))
        self.assertFalse(box.contains(np.array([2, 0, 0], np.float32)))

    def test_multi_discrete_and_dict(self):
        md = _MultiDiscrete(np.full(4, 3), seed=2)
        self.assertTrue(md.contains(md.sample()))
        d = _Dict({"a": _Discrete(2), "b": _Box(0, 1, (2,))})
        self.assertTrue(d.contains(d.sample()))
        self.assertIs(d["a"], d.spaces["a"])


if __name__ == "__main__":
    unittest.main()
