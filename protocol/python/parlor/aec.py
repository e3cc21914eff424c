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
"""

import numpy as np

from ._remote import Remote, agent_names
from .client import DEFAULT_ENDPOINT, DEFAULT_TIMEOUT
from .spaces import AECBase, Box, Dict, Discrete
from .wire import read_timestep


class AECEnv(AECBase):
    """AECEnv(game, max_steps=0, endpoint="tcp://127.0.0.1:5555") makes a
    multi-agent env on the server; reset(seed) deals. Options as for Env
    (client, timeout, view, names: added to the acting agent's info)."""

    metadata = {"name": "parlor_aec_v0", "render_modes": [],
                "is_parallelizable": False}

    def __init__(self, game="spoil_five", *, max_steps=0,
                 endpoint=DEFAULT_ENDPOINT, client=None,
                 timeout=DEFAULT_TIMEOUT, view=False, names=False):
        self._r = Remote(game, endpoint=endpoint, client=client,
                         timeout=timeout, max_steps=max_steps)
        self.game = self._r.spec
        r = self._r.shape
        self.possible_agents = agent_names(r.players)
        obs_space = Dict({
            "observation": Box(self._r.obs_low, self._r.obs_high,
                               (r.obs_size,), np.float32),
            "action_mask": Box(0, 1, (r.num_actions,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: Discrete(r.num_actions)
                              for a in self.possible_agents}
        self._view = view
        self._names = names
        self._no_mask = np.zeros(r.num_actions, dtype=np.int8)
        self._no_mask.setflags(write=False)
        self._no_obs = np.zeros(r.obs_size, dtype=np.float32)
        self._no_obs.setflags(write=False)
        self.agents = []
        self.agent_selection = None
        self.seed_played = None
        self._clear()

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    @property
    def client(self):
        """The Client this env talks through."""
        return self._r.client

    @property
    def env_id(self):
        """The server's id of this env (None once closed)."""
        return self._r.id

    # ---- the cycle ----------------------------------------------------

    def reset(self, seed=None, options=None):
        """Deals a new game (seed as Env.reset; options unused). A deal
        over before anyone acts is skipped; seed_played tells the deal."""
        ts, self.seed_played = self._r.reset_live(
            self._r.next_seed(seed), self._view, self._names)
        self.agents = self.possible_agents[:]
        self._clear()
        self._take(ts)

    def step(self, action):
        """Plays agent_selection's action; an agent that is done must be
        stepped with None, which removes it. When several seats act at
        once, their actions are gathered and sent as one joint step."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._dead_step(agent, action)
            return
        self._cumulative_rewards[agent] = 0.0
        client, env = self._r.client, self._r.id
        if len(self._acting) == 1:
            ts = client.step(env, int(action), view=self._view,
                             names=self._names)
        else:
            self._pending[self.possible_agents.index(agent)] = int(action)
            waiting = [s for s in self._acting if s not in self._pending]
            if waiting:
                self.agent_selection = self.possible_agents[waiting[0]]
                return
            # Seats not acting send -1, as PROTOCOL.md §7 asks.
            joint = [self._pending.get(s, -1)
                     for s in range(len(self.possible_agents))]
            ts = client.step(env, actions=joint, view=self._view,
                             names=self._names)
        self._take(ts)

    def observe(self, agent):
        """agent's latest observation and its current legal mask."""
        return {"observation": self._obs[agent],
                "action_mask": self._masks[agent]}

    def last(self, observe=True):
        """(observation, cumulative reward, termination, truncation, info)
        of agent_selection."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None,
                self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def close(self):
        """Frees the env on the server (and the connection if it is the
        env's own). Idempotent."""
        self._r.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    # ---- helpers ------------------------------------------------------

    def _clear(self):
        agents = self.agents
        self.rewards = {a: 0.0 for a in agents}
        self._cumulative_rewards = {a: 0.0 for a in agents}
        self.terminations = {a: False for a in agents}
        self.truncations = {a: False for a in agents}
        self.infos = {a: {} for a in agents}
        self._obs = {a: self._no_obs for a in self.possible_agents}
        self._masks = {a: self._no_mask for a in self.possible_agents}
        self._acting = []
        self._pending = {}

    def _take(self, ts):
        """Reads a timestep reply into the agent dicts."""
        r, names = self._r.shape, self.possible_agents
        obs, masks, reward, returns = read_timestep(ts, r)
        seen = range(r.players) if r.rows > 1 else [ts["seat"]]
        self._masks = {a: self._no_mask for a in names}
        for row, seat in enumerate(seen):
            self._obs[names[seat]] = obs[row]
            self._masks[names[seat]] = masks[row]
        self._acting = [s for s in range(r.players) if ts["to_move"] >> s & 1]
        done = ts["terminated"], ts["truncated"]
        for seat, agent in enumerate(names):
            self.rewards[agent] = float(reward[seat])
            self._cumulative_rewards[agent] += self.rewards[agent]
            self.terminations[agent], self.truncations[agent] = done
            self.infos[agent] = {"action_mask": self._masks[agent],
                                 "returns": returns, "seat": seat}
        observer = self.infos[names[ts["seat"]]]
        for key in ("view", "legal_ids", "legal_names"):
            if key in ts:
                observer[key] = ts[key]
        over = done[0] or done[1]
        self.agent_selection = (self.agents[0] if over
                                else names[self._acting[0]])

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
