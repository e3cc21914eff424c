"""Test stand-in for gymnasium.vector (see ../README)."""
import enum


class AutoresetMode(enum.Enum):
    NEXT_STEP = "NextStep"
    SAME_STEP = "SameStep"
    DISABLED = "Disabled"


class VectorEnv:
    closed = False
