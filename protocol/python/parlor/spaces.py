"""Spaces and base classes: Gymnasium's and PettingZoo's when installed,
tiny stand-ins otherwise.

The env classes inherit from EnvBase, VectorEnvBase, AECBase and
ParallelBase and build their spaces with Box, Discrete, MultiDiscrete and
Dict from here. With gymnasium (and pettingzoo) importable these are the
real classes, so the
envs pass isinstance checks and work with their wrappers; without them the
stand-ins below keep the same attributes (shape, dtype, n, nvec, low, high,
spaces) and methods (sample with an optional mask, contains, seed), so
code written against the libraries runs unchanged.
"""

import numpy as np

# ---- stand-ins -------------------------------------------------------------


class _Space:
    """What every stand-in space shares: a dtype, a shape and an RNG."""

    def __init__(self, shape, dtype, seed=None):
        self.shape = tuple(shape) if shape is not None else None
        self.dtype = np.dtype(dtype) if dtype is not None else None
        self.np_random = np.random.default_rng(seed)

    def seed(self, seed=None):
        self.np_random = np.random.default_rng(seed)
        return [seed]

    def __contains__(self, x):
        return self.contains(x)


class _Discrete(_Space):
    """Integers start..start+n-1."""

    def __init__(self, n, seed=None, start=0):
        super().__init__((), np.int64, seed)
        self.n = int(n)
        self.start = int(start)

    def sample(self, mask=None):
        """A uniform draw, among the entries where mask (int8, n) is 1."""
        if mask is None:
            return self.start + int(self.np_random.integers(self.n))
        allowed = np.flatnonzero(np.asarray(mask))
        if allowed.size == 0:
            return self.start
        return self.start + int(self.np_random.choice(allowed))

    def contains(self, x):
        if isinstance(x, np.ndarray) and x.shape == ():
            x = x.item()
        if not isinstance(x, (int, np.integer)):
            return False
        return self.start <= int(x) < self.start + self.n

    def __repr__(self):
        return f"Discrete({self.n})"

    def __eq__(self, other):
        return (isinstance(other, _Discrete) and other.n == self.n
                and other.start == self.start)


class _MultiDiscrete(_Space):
    """Arrays whose entry i lies in 0..nvec[i]-1."""

    def __init__(self, nvec, dtype=np.int64, seed=None):
        self.nvec = np.asarray(nvec, dtype=dtype)
        super().__init__(self.nvec.shape, dtype, seed)

    def sample(self, mask=None):
        """Uniform draws; mask, if given, is one int8 mask per entry."""
        if mask is None:
            return (self.np_random.random(self.shape) *
                    self.nvec).astype(self.dtype)
        flat = [_Discrete(n).sample(m) for n, m in
                zip(self.nvec.ravel(), mask)]
        return np.asarray(flat, dtype=self.dtype).reshape(self.shape)

    def contains(self, x):
        x = np.asarray(x)
        return (x.shape == self.shape and np.issubdtype(x.dtype, np.integer)
                and bool(np.all((x >= 0) & (x < self.nvec))))

    def __repr__(self):
        return f"MultiDiscrete({self.nvec.tolist()})"


class _Box(_Space):
    """Arrays of shape whose entries lie in [low, high]."""

    def __init__(self, low, high, shape=None, dtype=np.float32, seed=None):
        super().__init__(shape if shape is not None else np.shape(low),
                         dtype, seed)
        self.low = np.full(self.shape, low, dtype=self.dtype)
        self.high = np.full(self.shape, high, dtype=self.dtype)

    def sample(self, mask=None):
        del mask  # a Box has nothing to mask
        if np.issubdtype(self.dtype, np.integer):
            return self.np_random.integers(self.low, self.high.astype(np.int64)
                                           + 1, dtype=self.dtype)
        return self.np_random.uniform(self.low, self.high).astype(self.dtype)

    def contains(self, x):
        x = np.asarray(x)
        return (x.shape == self.shape and np.can_cast(x.dtype, self.dtype)
                and bool(np.all((x >= self.low) & (x <= self.high))))

    def __repr__(self):
        return f"Box({self.low.min()}, {self.high.max()}, {self.shape}, " \
               f"{self.dtype})"


class _Dict(_Space):
    """Dicts of named sub-spaces."""

    def __init__(self, spaces, seed=None):
        super().__init__(None, None, seed)
        self.spaces = dict(spaces)

    def __getitem__(self, key):
        return self.spaces[key]

    def sample(self, mask=None):
        return {k: s.sample(None if mask is None else mask.get(k))
                for k, s in self.spaces.items()}

    def contains(self, x):
        return (isinstance(x, dict) and x.keys() == self.spaces.keys()
                and all(s.contains(x[k]) for k, s in self.spaces.items()))

    def __repr__(self):
        return f"Dict({self.spaces!r})"


class _EnvBase:
    """Stand-in for gymnasium.Env: context-manager support and unwrapped."""

    metadata = {"render_modes": []}
    render_mode = None

    @property
    def unwrapped(self):
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


class _VectorEnvBase(_EnvBase):
    """Stand-in for gymnasium.vector.VectorEnv."""


class _ParallelBase:
    """Stand-in for pettingzoo.ParallelEnv: the agent counts."""

    metadata = {"render_modes": []}

    @property
    def num_agents(self):
        return len(self.agents)

    @property
    def max_num_agents(self):
        return len(self.possible_agents)

    @property
    def unwrapped(self):
        return self


class _AECBase(_ParallelBase):
    """Stand-in for pettingzoo.AECEnv: the agent iterator and counts."""

    def agent_iter(self, max_iter=2 ** 63):
        """Yields agent_selection until no agent is left or max_iter."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection


# ---- the libraries' own, when importable -----------------------------------

try:
    import gymnasium
    import gymnasium.vector
    from gymnasium.spaces import Box, Dict, Discrete, MultiDiscrete
    EnvBase = gymnasium.Env
    VectorEnvBase = gymnasium.vector.VectorEnv
    HAVE_GYMNASIUM = True
except ImportError:
    Box, Dict, Discrete, MultiDiscrete = _Box, _Dict, _Discrete, \
        _MultiDiscrete
    EnvBase = _EnvBase
    VectorEnvBase = _VectorEnvBase
    HAVE_GYMNASIUM = False

try:
    from pettingzoo import AECEnv as AECBase
    from pettingzoo import ParallelEnv as ParallelBase
    HAVE_PETTINGZOO = True
except ImportError:
    AECBase, ParallelBase = _AECBase, _ParallelBase
    HAVE_PETTINGZOO = False
