"""AECEnv: one game on a parlor server with every seat driven by the caller,
in PettingZoo's agent-environment-cycle style.

Seats are agents "player_0".."player_{k-1}". The usual loop works:

    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else policy(obs)
        env.step(action)

observe(agent) is a dict {"observation": float32 array, "action_mask":
int8 array}, and infos[agent]["action_mask"] is the same mask. The server
reports the observation of the seat to act (of every seat when several act
at once), so an agent that is not acting sees the last observation it was
given; its mask is all zero. At the end of a game the agents are stepped
with None one by one and leave agents, as PettingZoo prescribes. With
pettingzoo installed AECEnv is a pettingzoo.AECEnv; without, it behaves the
same on its own.

A round is the set of agents selected before the server steps. With
cycle="turns" (the default) it is the seats to act: one agent in a
turn-based game, every acting seat (in seat order) in a simultaneous one,
whose actions go out together as one joint step. With cycle="rounds" every
live agent is selected every round in seat order, and those not to act
give None or any action, which is ignored: that is the cycle PettingZoo's
aec_to_parallel expects, so such an env declares is_parallelizable.
Illegal actions follow the env's illegal rule (see parlor.Env).
"""

from ._table import Table, TableEnv
from .client import DEFAULT_CONNECT_TIMEOUT, DEFAULT_TIMEOUT
from .spaces import AECBase

CYCLES = ("turns", "rounds")


class AECEnv(TableEnv, AECBase):
    """AECEnv(game, max_steps=0, endpoint=None, cycle="turns") makes a
    multi-agent env on the server; reset(seed) deals. Options as for Env
    (client, timeout, connect_timeout, view, names: added to the observing
    agent's info, render_mode, illegal)."""

    metadata = {"name": "parlor_aec_v0", "render_modes": ["ansi"],
                "render_fps": 4, "is_parallelizable": False}

    def __init__(self, game="spoil_five", *, max_steps=0, endpoint=None,
                 client=None, timeout=DEFAULT_TIMEOUT,
                 connect_timeout=DEFAULT_CONNECT_TIMEOUT, view=False,
                 names=False, render_mode=None, illegal="terminate",
                 cycle="turns"):
        if cycle not in CYCLES:
            raise ValueError(f"cycle={cycle!r}: give 'turns' or 'rounds'")
        self._t = Table(game, max_steps=max_steps, endpoint=endpoint,
                        client=client, timeout=timeout,
                        connect_timeout=connect_timeout, view=view,
                        names=names, illegal=illegal,
                        render_mode=render_mode)
        self.metadata = dict(self.metadata,
                             is_parallelizable=cycle == "rounds")
        self.game = self._t.remote.spec
        self.cycle = cycle
        self.render_mode = render_mode
        self.possible_agents = self._t.names[:]
        self.observation_spaces = self._t.observation_spaces
        self.action_spaces = self._t.action_spaces
        self.agents = []
        self.agent_selection = None
        self._clear()

    # ---- the cycle ----------------------------------------------------

    def reset(self, seed=None, options=None):
        """Deals a new game (seed as Env.reset; options unused). A deal
        over before anyone acts is skipped; seed_played tells the deal."""
        self._t.reset(seed)
        self.agents = self.possible_agents[:]
        self._clear()
        self._take()

    def step(self, action):
        """Plays agent_selection's action; an agent that is done must be
        stepped with None, which removes it. The round's actions go to the
        server when its last agent has stepped."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._dead_step(agent, action)
            return
        self._cumulative_rewards[agent] = 0.0
        seat = self.possible_agents.index(agent)
        if seat in self._t.acting:
            checked = self._t.check(seat, action)
            if checked is None:
                self._t.forfeit(seat)
                self._take()
                return
            self._pending[seat] = checked
        elif action is not None:  # an idle agent of cycle="rounds"
            self._t.check_type(seat, action)
        self._round.pop(0)
        if self._round:
            # Nothing moved: this step earned nobody anything.
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[self._round[0]]
            return
        pending, self._pending = self._pending, {}
        self._t.play(pending)
        self._take()

    def observe(self, agent):
        """agent's latest observation and its current legal mask."""
        return self._t.observation(self.possible_agents.index(agent))

    def last(self, observe=True):
        """(observation, cumulative reward, termination, truncation, info)
        of agent_selection."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None,
                self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    # ---- helpers ------------------------------------------------------

    def _clear(self):
        agents = self.agents
        self.rewards = {a: 0.0 for a in agents}
        self._cumulative_rewards = {a: 0.0 for a in agents}
        self.terminations = {a: False for a in agents}
        self.truncations = {a: False for a in agents}
        self.infos = {a: {} for a in agents}
        self._round = []    # seats still to be selected this round
        self._pending = {}  # seat -> action given this round

    def _take(self):
        """Reads the table after a step into the agent dicts and starts
        the next round."""
        t, names = self._t, self.possible_agents
        for seat, agent in enumerate(names):
            self.rewards[agent] = float(t.reward[seat])
            self._cumulative_rewards[agent] += self.rewards[agent]
            self.terminations[agent] = t.terminated
            self.truncations[agent] = t.truncated
            self.infos[agent] = t.info(seat)
        if t.over:
            self._round = []
            self.agent_selection = self.agents[0]
            return
        self._round = (t.acting[:] if self.cycle == "turns"
                       else list(range(len(names))))
        self.agent_selection = names[self._round[0]]

    def _dead_step(self, agent, action):
        if action is not None:
            raise ValueError(f"{agent} is done: step it with None")
        self.agents.remove(agent)
        for table in (self.rewards, self._cumulative_rewards,
                      self.terminations, self.truncations, self.infos):
            del table[agent]
        for other in self.agents:
            self.rewards[other] = 0.0
        self.agent_selection = self.agents[0] if self.agents else None
