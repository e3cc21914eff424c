"""The single-agent Env: full random games of Spoil-Five and Thirty-One
over tcp and ipc, checked against the env's contract (env/env.h): returns
at reset are zero and rewards add up to the final return, zero-sum games
end summing to zero, a legal action exists at every decision, an illegal
action ends the episode at the game's lowest return (or, with
illegal="raise", raises and changes nothing), max_steps truncates,
actions are type-checked, a closed env says so, render gives text."""

import unittest

import numpy as np

from helpers import CALL_TIMEOUT, ServerCase, pick
from parlor import Env, ParlorClosed, ParlorError

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
                    # env.h: returns at reset are zero and the rewards
                    # of an episode sum to the final return.
                    self.assertEqual(start.tolist(), [0.0] * env.players)
                    self.assertAlmostEqual(total, info["returns"][env.seat])
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

    def test_rewards_sum_to_final_return(self):
        # Where the deal scores at once (My Bird Sings) or the opponents
        # move inside reset (Dice and Loto with the learner sitting last),
        # reset still reports zero returns and the first step credits it.
        rng = np.random.default_rng(12)
        for game, seat in (("my_bird_sings", 0), ("dice(players=3)", 2),
                           ("loto(players=3)", 2)):
            env = self.make(game, seat=seat)
            for seed in range(3):
                with self.subTest(game=game, seed=seed):
                    _, total, start, info, _ = self.play(env, seed, rng)
                    self.assertEqual(start.tolist(), [0.0] * env.players)
                    self.assertAlmostEqual(total, info["returns"][seat])

    def test_illegal_action_ends_the_episode(self):
        # The default rule (PettingZoo's classic games): the episode ends
        # and the offender's return is the game's lowest, ret_low.
        env = self.make("thirty_one(players=2)")
        low = env.client.describe(env.game)["ret_low"]
        rng = np.random.default_rng(3)
        _, info = env.reset(seed=3)
        total = 0.0
        for _ in range(2):
            _, reward, _, _, info = env.step(pick(rng, info["action_mask"]))
            total += reward
        before = info["returns"].copy()
        illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
        _, reward, term, trunc, info = env.step(np.int64(illegal))
        self.assertIs(term, True)
        self.assertIs(trunc, False)
        self.assertTrue(info["illegal"])
        self.assertEqual(reward, low - before[env.seat])
        self.assertEqual(total + reward, low)
        self.assertEqual(info["returns"][env.seat], low)
        other = 1 - env.seat
        self.assertEqual(info["returns"][other], before[other])
        self.assertEqual(info["action_mask"].sum(), 0)
        with self.assertRaises(ParlorError) as cm:
            env.step(0)
        self.assertEqual(cm.exception.name, "STATE")
        env.reset(seed=4)  # and the env goes on

    def test_illegal_action_changes_nothing(self):
        env = self.make("spoil_five", illegal="raise")
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

    def test_actions_are_type_checked(self):
        env = self.make("thirty_one(players=2)", illegal="raise")
        _, info = env.reset(seed=5)
        legal = int(np.flatnonzero(info["action_mask"])[0])
        for bad in (legal + 0.5, float(legal), str(legal), None, True,
                    np.float32(legal), [legal]):
            with self.subTest(action=bad), self.assertRaises(TypeError):
                env.step(bad)
        for bad in (-1, env.action_space.n, 2 ** 40):
            with self.subTest(action=bad), self.assertRaises(ValueError):
                env.step(bad)
        self.assertEqual(info["steps"], 0)
        _, _, _, _, info = env.step(np.array(legal, dtype=np.int32))
        self.assertEqual(info["steps"], 1)

    def test_closed_env_says_so(self):
        env = self.make("thirty_one")
        env.reset(seed=1)
        env.close()
        for call in (lambda: env.step(0), lambda: env.reset(seed=2)):
            with self.assertRaises(ParlorClosed) as cm:
                call()
            self.assertIn("closed", str(cm.exception))
        env.close()  # closing twice is allowed

    def test_info_seed_stacks_like_gymnasium(self):
        # Gymnasium's vector envs store an info value of a numpy number
        # type, or int, in np.zeros(num_envs, dtype=type(value)): the seed
        # must fit, even the largest 64-bit one.
        env = self.make("thirty_one")
        for seed in (0, 2 ** 63, 2 ** 64 - 1):
            _, info = env.reset(seed=seed)
            column = np.zeros(2, dtype=type(info["seed"]))
            column[1] = info["seed"]
            self.assertEqual(int(column[1]), seed)

    def test_render_ansi(self):
        env = self.make("spoil_five(players=2)", render_mode="ansi")
        self.assertIsNone(env.render())  # nothing dealt yet
        env.reset(seed=2)
        text = env.render()
        self.assertTrue(text.startswith("Spoil-Five (spoil_five(players=2))"))
        self.assertIn("\nhand: ", text)
        self.assertIn("\ntrump: ", text)
        self.assertIsNone(self.make("spoil_five").render())
        with self.assertRaises(ValueError):
            self.make("spoil_five", render_mode="human")

    def test_needs_opponents(self):
        with self.assertRaises(ValueError):
            Env("spoil_five", opponents=None, endpoint=self.endpoint)


class SingleAgentIpc(SingleAgent):
    TRANSPORT = "ipc"


if __name__ == "__main__":
    unittest.main()
