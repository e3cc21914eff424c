"""Test stand-in for gymnasium (see ../README): Env. Unlike the real one
it does not import its subpackages here, since its spaces are parlor's
stand-ins (which would make the import circular); parlor imports
gymnasium.spaces and gymnasium.vector by name anyway."""
import numpy as np


class Env:
    """gymnasium.Env's reset seeds np_random, as the real one does."""

    np_random = None

    def reset(self, *, seed=None, options=None):
        if seed is not None or self.np_random is None:
            self.np_random = np.random.default_rng(seed)
