"""VectorEnv: batched random play of Spoil-Five and Thirty-One, single-
agent and multi-agent, checked column by column; and every env of a batch
replayed alone by a plain env from its derived seed (env/venv.h: env i
starts from derive_seed(s, i), its k-th auto-reset from
derive_seed(that, k)), which must give the same observations, rewards and
flags step for step."""

import unittest

import numpy as np

from helpers import (CALL_TIMEOUT, ServerCase, check_illegal_moves_nothing,
                     random_actions, record)
from parlor import AECEnv, Env, VectorEnv
from parlor import derive_seed


def ended_some(traces):
    """True when some env of the traces finished an episode."""
    return any(step[4] or step[5] for trace in traces for step in trace)


class Vector(ServerCase):
    def make(self, game, n, **kw):
        venv = VectorEnv(game, n, endpoint=self.endpoint,
                         timeout=CALL_TIMEOUT, **kw)
        self.addCleanup(venv.close)
        return venv

    def check_batch(self, venv, obs, rew, term, trunc, info, multi):
        n = venv.num_envs
        self.assertEqual(obs.shape, (n,) + venv.single_observation_space.shape)
        self.assertEqual(obs.dtype, np.float32)
        self.assertTrue(venv.observation_space.contains(obs))
        self.assertEqual(rew.shape, (n, venv.players) if multi else (n,))
        self.assertEqual((term.dtype, trunc.dtype), (np.bool_, np.bool_))
        ended = term | trunc
        # The venv skips deals with nothing to decide, so every env has a
        # decision now, an ended one in its next episode at step 0.
        self.assertTrue(np.all(info["action_mask"].sum(axis=1) > 0))
        self.assertTrue(np.all(info["steps"][ended] == 0))
        self.assertEqual(len(info["final_obs_rows"]), int(ended.sum()))
        self.assertEqual(len(info["final_seat"]), int(ended.sum()))
        if not multi:
            self.assertTrue(np.all(info["seat"] == venv.learner))

    def test_random_batches(self):
        rng = np.random.default_rng(8)
        for game in ("spoil_five", "thirty_one"):
            for multi in (False, True):
                with self.subTest(game=game, multi=multi):
                    venv = self.make(game, 16,
                                     opponents=None if multi else "random")
                    info = venv.reset(seed=3)[1]
                    episodes = 0
                    for _ in range(400):  # several games per env
                        out = venv.step(random_actions(rng, info))
                        self.check_batch(venv, *out, multi=multi)
                        info = out[4]
                        episodes += int((out[2] | out[3]).sum())
                    self.assertGreater(episodes, 16)

    def test_single_agent_envs_replay_alone(self):
        rng = np.random.default_rng(9)
        for game in ("spoil_five", "thirty_one"):
            with self.subTest(game=game):
                venv = self.make(game, 4)
                traces = record(venv, 1234, 120, rng)
                self.assertTrue(ended_some(traces))
                env = Env(game, endpoint=self.endpoint, client=venv.client)
                self.addCleanup(env.close)
                for i, trace in enumerate(traces):
                    self.replay_env(env, derive_seed(1234, i), trace)

    def replay_env(self, env, seed, trace):
        obs, _ = env.reset(seed=seed)
        for before, _, action, reward, term, trunc, final, _ in trace:
            self.assertEqual(obs.tobytes(), before)
            obs, r, te, tr, _ = env.step(action)
            self.assertEqual((r, te, tr), (reward, term, trunc))
            if te or tr:
                self.assertEqual(obs.tobytes(), final)
                obs, _ = env.reset()

    def test_multi_agent_envs_replay_alone(self):
        rng = np.random.default_rng(10)
        for game in ("spoil_five", "thirty_one(players=3)"):
            with self.subTest(game=game):
                venv = self.make(game, 4, opponents=None)
                traces = record(venv, 99, 300, rng)
                self.assertTrue(ended_some(traces))
                aec = AECEnv(game, endpoint=self.endpoint,
                             client=venv.client)
                self.addCleanup(aec.close)
                for i, trace in enumerate(traces):
                    self.replay_aec(aec, derive_seed(99, i), trace)

    def replay_aec(self, aec, seed, trace):
        aec.reset(seed=seed)
        for before, seat, action, reward, term, trunc, final, fseat in trace:
            agent = aec.agent_selection
            self.assertEqual(agent, f"player_{seat}")
            self.assertEqual(aec.observe(agent)["observation"].tobytes(),
                             before)
            aec.step(action)
            self.assertEqual([aec.rewards[a] for a in aec.possible_agents],
                             reward)
            self.assertEqual(aec.terminations[agent], term)
            self.assertEqual(aec.truncations[agent], trunc)
            if term or trunc:
                last = aec.observe(f"player_{fseat}")["observation"]
                self.assertEqual(last.tobytes(), final)
                for _ in aec.agent_iter():
                    aec.step(None)
                aec.reset()

    def test_large_batch_decoded_in_place(self):
        # Env i's deals depend on the seed and i only, so the first envs of
        # a batch large enough to be decoded from ZeroMQ's buffer (over
        # 100 KB a reply) step exactly as a small batch's.
        big, small = self.make("spoil_five", 128), self.make("spoil_five", 4)
        self.assertTrue(big._zero_copy)
        self.assertFalse(small._zero_copy)
        rng = np.random.default_rng(13)
        obs_b, info_b = big.reset(seed=8)
        obs_s, info_s = small.reset(seed=8)
        for _ in range(60):
            self.assertEqual(obs_b[:4].tobytes(), obs_s.tobytes())
            acts = random_actions(rng, info_b)
            obs_b, rew_b, term_b, _, info_b = big.step(acts)
            obs_s, rew_s, term_s, _, info_s = small.step(acts[:4])
            np.testing.assert_array_equal(rew_b[:4], rew_s)
            np.testing.assert_array_equal(term_b[:4], term_s)

    def test_illegal_action_moves_no_env(self):
        venv, twin = self.make("spoil_five", 8), self.make("spoil_five", 8)
        check_illegal_moves_nothing(self, venv, twin, 6, seed=5)

    def test_max_steps_truncates_every_env(self):
        venv = self.make("spoil_five", 8, max_steps=4)
        rng = np.random.default_rng(12)
        _, info = venv.reset(seed=6)
        for step in range(1, 5):
            _, _, term, trunc, info = venv.step(random_actions(rng, info))
            self.assertEqual(bool(trunc.all()), step == 4)
        self.assertFalse(term.any())
        self.assertTrue(np.all(info["steps"] == 0))

    def test_spaces(self):
        venv = self.make("thirty_one(players=3)", 5)
        self.assertEqual(venv.action_space.shape, (5,))
        self.assertTrue(venv.action_space.contains(
            np.zeros(5, dtype=np.int64)))
        self.assertEqual(venv.single_action_space.n,
                         venv.client.describe(venv.game)["num_actions"])
        self.assertEqual(venv.observation_space.shape[0], 5)


class VectorIpc(Vector):
    TRANSPORT = "ipc"


if __name__ == "__main__":
    unittest.main()
