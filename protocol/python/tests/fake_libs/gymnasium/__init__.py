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


# The registry, as parlor.register_envs uses it: register(id, entry_point
# "module:Class", kwargs), a dict of what is registered, and make(id,
# **kwargs) calling the entry point with the registered kwargs updated by
# the given ones (what the real make does, less its wrappers).
registry = {}


class EnvSpec:
    def __init__(self, id, entry_point, kwargs):
        self.id, self.entry_point, self.kwargs = id, entry_point, kwargs


def register(id, entry_point, kwargs=None, **_):
    registry[id] = EnvSpec(id, entry_point, dict(kwargs or {}))


def make(id, **kwargs):
    import importlib
    spec = registry[id]
    module, name = spec.entry_point.split(":")
    cls = getattr(importlib.import_module(module), name)
    return cls(**dict(spec.kwargs, **kwargs))
