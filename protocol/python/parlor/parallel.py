"""ParallelEnv: one game on a parlor server in PettingZoo's Parallel API.

Every live agent gives an action at every step, as a dict {agent: action};
only those of the seats to act count, and the others' (any action of the
space, or None) are ignored, so turn-based games work the same way as
simultaneous ones (PettingZoo's classic games are turn-based too). In a
simultaneous game the acting seats' actions go out as one joint step.

Observations are dicts {"observation", "action_mask"} per agent, as in
AECEnv: an agent not to act keeps the last observation it was given and an
all-zero mask. When the episode ends every agent is terminated (or
truncated) at once and agents becomes empty. Illegal actions follow the
env's illegal rule (see parlor.Env): with "terminate" the first offender in
seat order forfeits. With pettingzoo installed ParallelEnv is a
pettingzoo.ParallelEnv; without, it behaves the same on its own.
"""

from ._table import Table, TableEnv
from .client import DEFAULT_CONNECT_TIMEOUT, DEFAULT_TIMEOUT
from .spaces import ParallelBase


class ParallelEnv(TableEnv, ParallelBase):
    """ParallelEnv(game, max_steps=0, endpoint=None) makes a multi-agent env
    on the server; reset(seed) deals. Options as for AECEnv."""

    metadata = {"name": "parlor_parallel_v0", "render_modes": ["ansi"],
                "render_fps": 4}

    def __init__(self, game="spoil_five", *, max_steps=0, endpoint=None,
                 client=None, timeout=DEFAULT_TIMEOUT,
                 connect_timeout=DEFAULT_CONNECT_TIMEOUT, view=False,
                 names=False, render_mode=None, illegal="terminate"):
        self._t = Table(game, max_steps=max_steps, endpoint=endpoint,
                        client=client, timeout=timeout,
                        connect_timeout=connect_timeout, view=view,
                        names=names, illegal=illegal,
                        render_mode=render_mode)
        self.game = self._t.remote.spec
        self.render_mode = render_mode
        self.possible_agents = self._t.names[:]
        self.observation_spaces = self._t.observation_spaces
        self.action_spaces = self._t.action_spaces
        self.agents = []

    def reset(self, seed=None, options=None):
        """Deals a new game (seed as Env.reset; options unused). Returns
        (observations, infos), one entry per agent."""
        self._t.reset(seed)
        self.agents = self.possible_agents[:]
        return self._observations(), self._infos()

    def step(self, actions):
        """Plays one step from actions, a dict with an action for every
        agent to act (others may be left out). Returns (observations,
        rewards, terminations, truncations, infos) over the agents that
        were live."""
        t = self._t
        t.remote.require_open()
        if not self.agents:
            raise ValueError("the episode is over: call reset()")
        for agent in self.agents:  # type-check what was given
            if actions.get(agent) is not None:
                t.check_type(self.possible_agents.index(agent),
                             actions[agent])
        chosen = {}
        for seat in t.acting:
            agent = self.possible_agents[seat]
            if actions.get(agent) is None:
                raise ValueError(f"{agent} is to act: give its action")
            checked = t.check(seat, actions[agent])
            if checked is None:
                t.forfeit(seat)
                break
            chosen[seat] = checked
        else:
            t.play(chosen)
        live = self.agents
        result = (self._observations(),
                  {a: float(t.reward[self._seat(a)]) for a in live},
                  {a: t.terminated for a in live},
                  {a: t.truncated for a in live}, self._infos())
        if t.over:
            self.agents = []
        return result

    def state(self):
        """Not offered: a global state would show every hidden card."""
        raise NotImplementedError("parlor envs have no global state; each "
                                  "agent sees only its own observation")

    def _seat(self, agent):
        return self.possible_agents.index(agent)

    def _observations(self):
        return {a: self._t.observation(self._seat(a)) for a in self.agents}

    def _infos(self):
        return {a: self._t.info(self._seat(a)) for a in self.agents}
