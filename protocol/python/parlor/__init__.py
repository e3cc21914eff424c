"""parlor: Python client of the parlor card-game environment server.

Start a server with `parlor serve`, then:

    import parlor
    env = parlor.Env("spoil_five", opponents="random")   # single-agent
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(
        env.action_space.sample(mask=info["action_mask"]))

Env is Gymnasium-style (one learner against built-in agents), AECEnv and
ParallelEnv are PettingZoo-style (every seat driven by the caller),
VectorEnv steps many envs with one message per batch, and Client speaks the
wire protocol (protocol/PROTOCOL.md) directly. register_envs() makes every
game available to gymnasium.make as parlor/NAME-v0. Failed requests raise
ParlorError. docs/rl.md is the guide.
"""

from ._remote import derive_seed
from .aec import AECEnv
from .client import (DEFAULT_ENDPOINT, ERROR_CODES, PROTOCOL_VERSION, Client,
                     ParlorClosed, ParlorError, ParlorTimeout)
from .env import Env
from .parallel import ParallelEnv
from .registration import register_envs
from .spaces import HAVE_GYMNASIUM, HAVE_PETTINGZOO
from .vector import VectorEnv

__version__ = "0.1.0"

__all__ = [
    "AECEnv", "Client", "DEFAULT_ENDPOINT", "ERROR_CODES", "Env",
    "derive_seed",
    "HAVE_GYMNASIUM", "HAVE_PETTINGZOO", "PROTOCOL_VERSION", "ParallelEnv",
    "ParlorClosed", "ParlorError", "ParlorTimeout", "VectorEnv",
    "register_envs",
]
