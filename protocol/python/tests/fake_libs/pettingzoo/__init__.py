"""Test stand-in for pettingzoo (see ../README): AECEnv with its agent
iterator and ParallelEnv, as parlor relies on them."""


class ParallelEnv:
    @property
    def num_agents(self):
        return len(self.agents)

    @property
    def max_num_agents(self):
        return len(self.possible_agents)


class AECEnv(ParallelEnv):
    def agent_iter(self, max_iter=2 ** 63):
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection
