"""Same seed, same actions, same trajectory: random games in all three
modes are recorded on one server, then again on a restarted server and on
one listening over ipc, and must agree byte for byte; a different seed
must give a different game (or the comparison would prove nothing)."""

import unittest

import numpy as np

from helpers import CALL_TIMEOUT, Server, play_aec, play_env, record
from parlor import AECEnv, Env, VectorEnv

GAMES = ("spoil_five", "thirty_one")


def play_all(transport, seed):
    """Traces of an Env game, an AECEnv game and 60 vector steps of each
    game, played on a fresh server from seed."""
    traces = {}
    with Server(transport) as server:
        kw = {"endpoint": server.endpoint, "timeout": CALL_TIMEOUT}
        for game in GAMES:
            with Env(game, **kw) as env:
                traces[game, "env"] = play_env(env, seed,
                                               np.random.default_rng(seed))
            aec = AECEnv(game, **kw)
            traces[game, "aec"] = play_aec(aec, seed,
                                           np.random.default_rng(seed))
            aec.close()
            for opponents in ("random", None):
                venv = VectorEnv(game, 8, opponents=opponents, **kw)
                traces[game, "vector", opponents] = record(
                    venv, seed, 60, np.random.default_rng(seed))
                venv.close()
    return traces


class AcrossRestarts(unittest.TestCase):
    def test_same_seed_same_trajectory(self):
        first = play_all("tcp", 2024)
        self.assertEqual(first, play_all("tcp", 2024))
        self.assertEqual(first, play_all("ipc", 2024))

    def test_other_seed_other_trajectory(self):
        first, other = play_all("tcp", 1), play_all("tcp", 2)
        for key in first:
            with self.subTest(key=key):
                self.assertNotEqual(first[key], other[key])


if __name__ == "__main__":
    unittest.main()
