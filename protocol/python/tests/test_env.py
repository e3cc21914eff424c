"""The single-agent Env: full random games of Spoil-Five and Thirty-One
over tcp and ipc, checked against the env's contract (env/env.h): rewards
add up to the change in returns, zero-sum games end summing to zero, a
legal action exists at every decision, illegal actions change nothing,
max_steps truncates."""

import unittest

import numpy as np

from helpers import CALL_TIMEOUT, ServerCase, pick
from parlor import Env, ParlorError

GAMES = ("spoil_five", "thirty_one", "spoil_five(players=6)",
         "thirty_one(players=2)")


class SingleAgent(ServerCase):
    def make(self, game, **kw):
        env = Env(game, endpoint=self.endpoint, timeout=CALL_TIMEOUT, **kw)
        self.addCleanup(env.close)
        return env

    def play(self, env, seed, rng):
        """One episode; checks each timestep; returns (steps, total reward,
        returns at reset, final info, last terminated)."""
        obs, info = env.reset(seed=seed)
        start = info["returns"].copy()
        total, steps, done = 0.0, 0, False
        while not done:
            self.check_obs(env, obs, info)
            obs, reward, terminated, truncated, info = env.step(
                pick(rng, info["action_mask"]))
            total += reward
            steps += 1
            self.assertEqual(info["steps"], steps)
            done = terminated or truncated
        self.check_obs(env, obs, info)
        return steps, total, start, info, terminated

    def check_obs(self, env, obs, info):
        self.assertEqual(obs.dtype, np.float32)
        self.assertTrue(env.observation_space.contains(obs))
        self.assertEqual(info["action_mask"].shape, (env.action_space.n,))
        self.assertEqual(info["seat"], env.seat)

    def test_full_random_games(self):
        rng = np.random.default_rng(1)
        for game in GAMES:
            env = self.make(game)
            for seed in range(4):
                with self.subTest(game=game, seed=seed):
                    steps, total, start, info, term = self.play(env, seed,
                                                                rng)
                    self.assertTrue(term)
                    self.assertGreater(steps, 0)
                    # env.h: the rewards of an episode sum to the final
                    # returns minus those at reset.
                    self.assertAlmostEqual(
                        total, info["returns"][env.seat] - start[env.seat])
                    # Both games are zero-sum (describe's flags say so).
                    self.assertAlmostEqual(float(info["returns"].sum()), 0)
                    self.assertEqual(info["action_mask"].sum(), 0)

    def test_every_decision_has_a_legal_action(self):
        env = self.make("thirty_one(players=4)")
        rng = np.random.default_rng(2)
        _, info = env.reset(seed=9)
        done = False
        while not done:
            self.assertGreater(info["action_mask"].sum(), 0)
            _, _, term, trunc, info = env.step(pick(rng, info["action_mask"]))
            done = term or trunc

    def test_learner_in_another_seat(self):
        env = self.make("spoil_five(players=3)", seat=2,
                        opponents="random,random")
        self.assertEqual(env.seat, 2)
        self.assertEqual(env.opponents, ["random", "random", None])
        _, info = env.reset(seed=4)
        self.assertEqual(info["seat"], 2)

    def test_illegal_action_changes_nothing(self):
        env = self.make("spoil_five")
        obs, info = env.reset(seed=3)
        before = obs.tobytes()
        illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
        with self.assertRaises(ParlorError) as cm:
            env.step(illegal)
        self.assertEqual(cm.exception.name, "ILLEGAL_ACTION")
        # The same legal action now gives what a fresh env gives.
        twin = self.make("spoil_five")
        twin_obs, _ = twin.reset(seed=3)
        self.assertEqual(twin_obs.tobytes(), before)
        legal = int(np.flatnonzero(info["action_mask"])[0])
        self.assertEqual(env.step(legal)[0].tobytes(),
                         twin.step(legal)[0].tobytes())

    def test_step_after_game_over_is_refused(self):
        env = self.make("thirty_one(players=2)")
        rng = np.random.default_rng(5)
        self.play(env, 1, rng)
        with self.assertRaises(ParlorError) as cm:
            env.step(0)
        self.assertEqual(cm.exception.name, "STATE")

    def test_max_steps_truncates(self):
        env = self.make("spoil_five", max_steps=3)
        rng = np.random.default_rng(6)
        steps, _, _, _, terminated = self.play(env, 2, rng)
        self.assertEqual(steps, 3)
        self.assertFalse(terminated)

    def test_view_and_names(self):
        env = self.make("spoil_five", view=True, names=True)
        _, info = env.reset(seed=8)
        self.assertEqual(info["legal_ids"],
                         np.flatnonzero(info["action_mask"]).tolist())
        self.assertEqual(len(info["legal_names"]), len(info["legal_ids"]))
        self.assertEqual(info["view"]["seat"], env.seat)

    def test_seed_stream(self):
        # reset(seed=s) then reset() plays the stream derived from s: two
        # envs given the same seed deal the same games after it.
        a, b = self.make("thirty_one"), self.make("thirty_one")
        seeds = []
        for env in (a, b):
            _, info = env.reset(seed=77)
            seeds.append([info["seed"]] +
                         [env.reset()[1]["seed"] for _ in range(3)])
        self.assertEqual(seeds[0], seeds[1])
        self.assertEqual(len(set(seeds[0])), 4)

    def test_space_sample_with_mask(self):
        env = self.make("spoil_five")
        _, info = env.reset(seed=11)
        for _ in range(20):
            a = env.action_space.sample(mask=info["action_mask"])
            self.assertEqual(info["action_mask"][a], 1)

    def test_shared_client(self):
        first = self.make("spoil_five")
        second = self.make("thirty_one", client=first.client)
        self.assertIs(second.client, first.client)
        second.close()
        self.assertFalse(first.client.closed)
        first.reset(seed=1)

    def test_needs_opponents(self):
        with self.assertRaises(ValueError):
            Env("spoil_five", opponents=None, endpoint=self.endpoint)


class SingleAgentIpc(SingleAgent):
    TRANSPORT = "ipc"


if __name__ == "__main__":
    unittest.main()
