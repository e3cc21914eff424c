"""The PettingZoo-style AECEnv: full random games driven through
agent_iter/last/step, the agent dicts' bookkeeping, and the end of a game
(every agent stepped with None and removed)."""

import unittest

import numpy as np

from helpers import CALL_TIMEOUT, ServerCase, pick, play_aec
from parlor import AECEnv, ParlorError

GAMES = ("spoil_five", "thirty_one", "spoil_five(players=2)",
         "thirty_one(players=5)")


class MultiAgent(ServerCase):
    def make(self, game, **kw):
        env = AECEnv(game, endpoint=self.endpoint, timeout=CALL_TIMEOUT,
                     **kw)
        self.addCleanup(env.close)
        return env

    def play_checked(self, env, seed, rng):
        """Plays one game, checking the cycle; returns (moves, rewards
        summed per agent, returns at reset, returns at the end)."""
        env.reset(seed=seed)
        start = env.infos[env.agent_selection]["returns"].copy()
        totals = dict.fromkeys(env.possible_agents, 0.0)
        moves, final = 0, None
        for agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            self.assertIs(obs["action_mask"], info["action_mask"])
            if term or trunc:
                final = info["returns"]
                env.step(None)
                self.assertNotIn(agent, env.agents)
                continue
            self.assertGreater(obs["action_mask"].sum(), 0)
            self.assertTrue(env.observation_space(agent).contains(obs))
            for other in env.agents:  # only the agent to act may act
                if other != agent:
                    self.assertEqual(env.infos[other]["action_mask"].sum(), 0)
            env.step(pick(rng, obs["action_mask"]))
            moves += 1
            for a in env.possible_agents:
                totals[a] += env.rewards[a]
        self.assertEqual(env.agents, [])
        return moves, totals, start, final

    def test_full_random_games(self):
        rng = np.random.default_rng(3)
        for game in GAMES:
            env = self.make(game)
            for seed in range(3):
                with self.subTest(game=game, seed=seed):
                    moves, totals, start, final = self.play_checked(
                        env, seed, rng)
                    self.assertGreater(moves, 0)
                    # Rewards add up to the change in returns (env.h), per
                    # seat, and the games are zero-sum at the end.
                    for seat, agent in enumerate(env.possible_agents):
                        self.assertAlmostEqual(totals[agent],
                                               final[seat] - start[seat])
                    self.assertAlmostEqual(float(final.sum()), 0)

    def test_cumulative_reward_reaches_every_agent(self):
        # Whatever an agent won during others' moves is in its
        # cumulative reward when last() is next called for it.
        env = self.make("thirty_one(players=3)")
        rng = np.random.default_rng(4)
        env.reset(seed=12)
        start = env.infos["player_0"]["returns"].copy()
        got = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            _, reward, term, trunc, info = env.last()
            got[agent] += reward
            if term or trunc:
                final = info["returns"]
                env.step(None)
            else:
                env.step(pick(rng, info["action_mask"]))
        for seat, agent in enumerate(env.possible_agents):
            self.assertAlmostEqual(got[agent], final[seat] - start[seat])

    def test_spaces_and_agents(self):
        env = self.make("spoil_five(players=5)")
        self.assertEqual(env.possible_agents,
                         [f"player_{i}" for i in range(5)])
        self.assertEqual(env.max_num_agents, 5)
        env.reset(seed=1)
        self.assertEqual(env.num_agents, 5)
        space = env.observation_space("player_3")
        self.assertEqual(space["action_mask"].shape,
                         (env.action_space("player_3").n,))

    def test_done_agent_takes_only_none(self):
        env = self.make("thirty_one(players=2)", max_steps=2)
        rng = np.random.default_rng(5)
        env.reset(seed=2)
        for _ in range(2):
            env.step(pick(rng, env.last()[0]["action_mask"]))
        self.assertTrue(all(env.truncations.values()))
        self.assertFalse(any(env.terminations.values()))
        with self.assertRaises(ValueError):
            env.step(0)
        env.step(None)
        env.step(None)
        self.assertEqual(env.agents, [])

    def test_illegal_action_changes_nothing(self):
        env = self.make("spoil_five", illegal="raise")
        env.reset(seed=6)
        agent = env.agent_selection
        mask = env.last()[0]["action_mask"]
        with self.assertRaises(ParlorError) as cm:
            env.step(int(np.flatnonzero(mask == 0)[0]))
        self.assertEqual(cm.exception.name, "ILLEGAL_ACTION")
        self.assertEqual(env.agent_selection, agent)
        env.step(int(np.flatnonzero(mask)[0]))

    def test_same_seed_same_game(self):
        a, b = self.make("spoil_five"), self.make("spoil_five")
        trace_a = play_aec(a, 21, np.random.default_rng(7))
        trace_b = play_aec(b, 21, np.random.default_rng(7))
        self.assertEqual(trace_a, trace_b)


class SimultaneousRounds(ServerCase):
    """In a simultaneous-move game every acting seat is asked for its
    action every round: the actions sent to the server are exactly those
    the agents gave in that round (a stale action from the round before
    must never be resent for a seat that was not asked)."""

    GAMES = ("trix_exchange", "trix_football")

    def play_counted(self, game, seed):
        env = AECEnv(game, endpoint=self.endpoint, timeout=CALL_TIMEOUT)
        self.addCleanup(env.close)
        sent, given = [], []  # per server step, per round: (seat, action)
        real_step = env.client.step

        def counting_step(env_id, action=None, *, actions=None, **kw):
            if actions is not None:
                sent.append(sorted((s, a) for s, a in enumerate(actions)
                                   if a != -1))
            else:
                sent.append([(env.possible_agents.index(
                    env.agent_selection), action)])
            return real_step(env_id, action, actions=actions, **kw)

        env.client.step = counting_step
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        selections, joint_rounds, round_ = 0, 0, []
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            seat = env.possible_agents.index(agent)
            action = pick(rng, obs["action_mask"])
            selections += 1
            round_.append((seat, action))
            before = len(sent)
            env.step(action)
            if len(sent) > before:  # the round went to the server
                given.append(sorted(round_))
                joint_rounds += len(round_) > 1
                round_ = []
        return selections, sent, given, joint_rounds

    def test_every_agent_asked_every_round(self):
        for game in self.GAMES:
            for seed in (1, 2):
                with self.subTest(game=game, seed=seed):
                    selections, sent, given, joint = self.play_counted(
                        game, seed)
                    self.assertGreater(joint, 1)  # several joint rounds
                    self.assertEqual(
                        sum(len(actions) for actions in sent), selections)
                    self.assertEqual(sent, given)


class MultiAgentIpc(MultiAgent):
    TRANSPORT = "ipc"


if __name__ == "__main__":
    unittest.main()
