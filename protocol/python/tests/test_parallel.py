"""The PettingZoo-style ParallelEnv, and AECEnv's two cycles: full random
games, the Parallel API's bookkeeping (keys of every dict are the live
agents, all of them leave at the end), rewards summing to the final
returns, the illegal-action rule, and cycle="rounds" playing exactly the
games ParallelEnv plays (what PettingZoo's aec_to_parallel relies on)."""

import unittest

import numpy as np

from helpers import CALL_TIMEOUT, ServerCase
from parlor import AECEnv, ParallelEnv, ParlorClosed, ParlorError

# Turn-based, a partnership game, and both simultaneous-move games.
GAMES = ("thirty_one(players=3)", "spoil_five(partnerships=true)",
         "trix_exchange", "trix_football")


def draw(rng, mask):
    """A legal action of mask, or 0 when the agent is not to act (one rng
    draw either way, so two players of the same game stay in step)."""
    legal = np.flatnonzero(mask)
    return int(rng.choice(legal)) if legal.size else int(rng.integers(1))


class Parallel(ServerCase):
    def make(self, cls, game, **kw):
        env = cls(game, endpoint=self.endpoint, timeout=CALL_TIMEOUT, **kw)
        self.addCleanup(env.close)
        return env

    def play(self, env, seed):
        """Plays one game of ParallelEnv env; returns (rewards summed per
        agent, final infos, steps, trace)."""
        rng = np.random.default_rng(seed)
        obs, infos = env.reset(seed=seed)
        self.assertEqual(sorted(obs), sorted(env.possible_agents))
        for info in infos.values():
            self.assertEqual(info["returns"].tolist(), [0.0] * len(obs))
        totals = dict.fromkeys(env.possible_agents, 0.0)
        steps, trace = 0, []
        while env.agents:
            live = env.agents[:]
            acting = [a for a in live if obs[a]["action_mask"].any()]
            self.assertTrue(acting)
            actions = {a: draw(rng, obs[a]["action_mask"]) for a in live}
            obs, rewards, terms, truncs, infos = env.step(actions)
            for table in (obs, rewards, terms, truncs, infos):
                self.assertEqual(sorted(table), sorted(live))
            for agent, reward in rewards.items():
                totals[agent] += reward
            steps += 1
            trace.append((actions, {a: o["observation"].tobytes()
                                    for a, o in obs.items()}, rewards))
        self.assertTrue(all(terms.values()))
        return totals, infos, steps, trace

    def test_full_random_games(self):
        for game in GAMES:
            env = self.make(ParallelEnv, game)
            for seed in (1, 2):
                with self.subTest(game=game, seed=seed):
                    totals, infos, steps, _ = self.play(env, seed)
                    self.assertGreater(steps, 1)
                    final = infos[env.possible_agents[0]]["returns"]
                    for seat, agent in enumerate(env.possible_agents):
                        self.assertAlmostEqual(totals[agent], final[seat])
                    self.assertAlmostEqual(float(final.sum()), 0)

    def test_rounds_cycle_plays_the_parallel_game(self):
        # AECEnv(cycle="rounds") selects every live agent each round, in
        # seat order; stepping it so is the same game as ParallelEnv's.
        for game in ("thirty_one(players=3)", "trix_exchange"):
            with self.subTest(game=game):
                par = self.make(ParallelEnv, game)
                aec = self.make(AECEnv, game, cycle="rounds")
                self.assertTrue(aec.metadata["is_parallelizable"])
                self.assertFalse(
                    self.make(AECEnv, game).metadata["is_parallelizable"])
                _, _, _, expected = self.play(par, 5)
                rng = np.random.default_rng(5)
                aec.reset(seed=5)
                for actions, observations, rewards in expected:
                    self.assertEqual(aec.agents, list(actions))
                    got = dict.fromkeys(aec.agents, 0.0)
                    for agent in list(aec.agents):
                        self.assertEqual(aec.agent_selection, agent)
                        mask = aec.observe(agent)["action_mask"]
                        action = draw(rng, mask)
                        self.assertEqual(action, actions[agent])
                        aec.step(action)
                        for other in aec.agents:
                            got[other] += aec.rewards[other]
                    self.assertEqual(got, rewards)
                    self.assertEqual({a: aec.observe(a)["observation"]
                                      .tobytes() for a in aec.agents},
                                     observations)
                    while aec.agents and aec.terminations[
                            aec.agent_selection]:
                        aec.step(None)
                self.assertEqual(aec.agents, [])

    def test_illegal_action_forfeits(self):
        env = self.make(ParallelEnv, "thirty_one(players=3)")
        low = env.client.describe(env.game)["ret_low"]
        obs, _ = env.reset(seed=3)
        agent = next(a for a in env.agents if obs[a]["action_mask"].any())
        seat = env.possible_agents.index(agent)
        illegal = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
        _, rewards, terms, truncs, infos = env.step(
            {a: illegal for a in env.agents})
        self.assertTrue(all(terms.values()))
        self.assertFalse(any(truncs.values()))
        self.assertEqual(rewards[agent], low)
        self.assertTrue(infos[agent]["illegal"])
        self.assertEqual(infos[agent]["returns"][seat], low)
        others = [a for a in rewards if a != agent]
        self.assertEqual([rewards[a] for a in others], [0.0, 0.0])
        self.assertEqual(env.agents, [])

    def test_illegal_raise_changes_nothing(self):
        env = self.make(ParallelEnv, "thirty_one(players=2)",
                        illegal="raise")
        obs, _ = env.reset(seed=3)
        agent = next(a for a in env.agents if obs[a]["action_mask"].any())
        illegal = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
        with self.assertRaises(ParlorError) as cm:
            env.step({agent: illegal})
        self.assertEqual(cm.exception.name, "ILLEGAL_ACTION")
        legal = int(np.flatnonzero(obs[agent]["action_mask"])[0])
        env.step({agent: legal})  # the env had not moved

    def test_bad_actions(self):
        env = self.make(ParallelEnv, "thirty_one(players=2)")
        obs, _ = env.reset(seed=4)
        agent = next(a for a in env.agents if obs[a]["action_mask"].any())
        with self.assertRaises(TypeError):
            env.step({agent: 1.5})
        with self.assertRaises(ValueError):  # the agent to act left out
            env.step({})
        env.close()
        with self.assertRaises(ParlorClosed):
            env.step({agent: 0})

    def test_aec_illegal_action_forfeits(self):
        env = self.make(AECEnv, "trix_exchange")
        low = env.client.describe(env.game)["ret_low"]
        env.reset(seed=6)
        agent = env.agent_selection
        seat = env.possible_agents.index(agent)
        mask = env.observe(agent)["action_mask"]
        env.step(int(np.flatnonzero(mask == 0)[0]))
        self.assertTrue(all(env.terminations.values()))
        self.assertEqual(env.rewards[agent], low)
        self.assertTrue(env.infos[agent]["illegal"])
        self.assertEqual(env.infos[agent]["returns"][seat], low)
        for _ in env.possible_agents:
            env.step(None)
        self.assertEqual(env.agents, [])

    def test_render_ansi(self):
        for cls in (AECEnv, ParallelEnv):
            env = self.make(cls, "trix_exchange", render_mode="ansi")
            env.reset(seed=1)
            text = env.render()
            self.assertTrue(text.startswith("Trix Exchange (trix_exchange)"))
            self.assertIn("\nhand: ", text)


if __name__ == "__main__":
    unittest.main()
