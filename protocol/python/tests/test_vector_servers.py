"""VectorEnv over several servers (two `parlor serve` on private ipc
endpoints): the envs are spread in order, 3 + 2 for five envs over two
servers; each server's share steps exactly as a one-server VectorEnv of
that size (the first from the seed itself, the second from derive_seed(
seed, num_envs + 1), vector.py); every step goes out to all servers before
any reply is awaited; an illegal action anywhere moves no env."""

import unittest

import numpy as np

from helpers import (CALL_TIMEOUT, Server, check_illegal_moves_nothing,
                     random_actions)
from parlor import Client, ParlorError, VectorEnv, derive_seed
from parlor.vector import spread


class Spread(unittest.TestCase):
    def test_spread(self):
        self.assertEqual(spread(5, 2), [3, 2])
        self.assertEqual(spread(4, 4), [1, 1, 1, 1])
        self.assertEqual(spread(64, 3), [22, 21, 21])


class TwoServers(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.servers = [Server("ipc"), Server("ipc")]
        for server in cls.servers:
            cls.addClassCleanup(server.stop)
        cls.endpoints = [s.endpoint for s in cls.servers]

    def make(self, n, endpoint=None, **kw):
        venv = VectorEnv("spoil_five", n, timeout=CALL_TIMEOUT,
                         endpoint=endpoint or self.endpoints, **kw)
        self.addCleanup(venv.close)
        return venv

    def test_shares_step_as_one_server_envs(self):
        for opponents in ("random", None):
            with self.subTest(opponents=opponents):
                self.check_shares(opponents)

    def check_shares(self, opponents):
        # Episodes cut at 25 steps: every env auto-resets several times.
        kw = {"opponents": opponents, "max_steps": 25}
        both = self.make(5, **kw)
        self.assertEqual([c.endpoint for c in both.clients], self.endpoints)
        first = self.make(3, self.endpoints[0], **kw)
        second = self.make(2, self.endpoints[1], **kw)
        obs, info = both.reset(seed=21)
        obs_a, _ = first.reset(seed=21)
        obs_b, _ = second.reset(seed=derive_seed(21, 5 + 1))
        self.assertEqual(obs.tobytes(), obs_a.tobytes() + obs_b.tobytes())
        rng, ended = np.random.default_rng(4), 0
        for _ in range(120):
            acts = random_actions(rng, info)
            out = both.step(acts)
            out_a, out_b = first.step(acts[:3]), second.step(acts[3:])
            for k in range(4):  # obs, reward, terminated, truncated
                np.testing.assert_array_equal(
                    out[k], np.concatenate([out_a[k], out_b[k]]))
            for key in ("action_mask", "seat", "final_obs_rows"):
                np.testing.assert_array_equal(
                    out[4][key],
                    np.concatenate([out_a[4][key], out_b[4][key]]))
            info = out[4]
            ended += int((out[2] | out[3]).sum())
        self.assertGreaterEqual(ended, 5 * 4)

    def test_all_sent_before_any_awaited(self):
        venv = self.make(4)
        _, info = venv.reset(seed=3)
        calls = []
        for k, client in enumerate(venv.clients):
            self.spy(client, "send_step", k, calls)
            self.spy(client, "receive", k, calls)
        venv.step(random_actions(np.random.default_rng(1), info))
        self.assertEqual(calls, [("send_step", 0), ("send_step", 1),
                                 ("receive", 0), ("receive", 1)])

    def spy(self, client, name, k, calls):
        real = getattr(client, name)

        def logged(*args, **kw):
            calls.append((name, k))
            return real(*args, **kw)
        setattr(client, name, logged)
        self.addCleanup(delattr, client, name)

    def test_illegal_action_moves_no_env(self):
        venv, twin = self.make(5), self.make(5)
        info = check_illegal_moves_nothing(self, venv, twin, 4, seed=5)
        acts = random_actions(np.random.default_rng(12), info)
        with self.assertRaises(ParlorError) as cm:
            venv.step(acts[:4])
        self.assertEqual(cm.exception.name, "BAD_BATCH")

    def test_lent_clients(self):
        clients = [Client(ep, timeout=CALL_TIMEOUT) for ep in self.endpoints]
        for c in clients:
            self.addCleanup(c.close)
        venv = self.make(5, client=clients, endpoint=None)
        self.assertEqual(venv.clients, clients)
        obs, _ = venv.reset(seed=21)
        self.assertEqual(obs.shape[0], 5)
        venv.close()
        self.assertFalse(any(c.closed for c in clients))

    def test_refusals(self):
        with self.assertRaises(ValueError):
            VectorEnv("spoil_five", 1, endpoint=self.endpoints)
        with self.assertRaises(ValueError):
            VectorEnv("spoil_five", 4, endpoint=[])


if __name__ == "__main__":
    unittest.main()
