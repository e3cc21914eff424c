"""Test stand-in for gymnasium.spaces (see ../README): the parlor
fallbacks under the library's names, marked so a test can tell them."""
from parlor.spaces import _Box, _Dict, _Discrete, _MultiDiscrete


class Box(_Box):
    from_gymnasium = True


class Dict(_Dict):
    from_gymnasium = True


class Discrete(_Discrete):
    from_gymnasium = True


class MultiDiscrete(_MultiDiscrete):
    from_gymnasium = True
