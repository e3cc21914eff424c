"""Gymnasium registration: gymnasium.make("parlor/NAME-v0") for every game.

register_envs() asks the server which games it serves (or takes the names
given) and registers one id per game, parlor/NAME-v0, whose entry point is
parlor.Env with game=NAME and the keyword arguments given here (endpoint,
opponents, seat, max_steps, illegal...). Arguments of gymnasium.make
override them, so gymnasium.make("parlor/spoil_five-v0",
game="spoil_five(players=2)") makes another configuration of the same game.
"""

from .client import Client

ENTRY_POINT = "parlor.env:Env"


def env_id(name):
    """The Gymnasium id of game name."""
    return f"parlor/{name}-v0"


def register_envs(endpoint=None, *, games=None, **kwargs):
    """Registers parlor/NAME-v0 for every game of games, or when None for
    every game the server at endpoint serves (None: $PARLOR_ENDPOINT or
    the default). kwargs go to parlor.Env. Returns the ids registered.
    Needs gymnasium; an id registered before is replaced."""
    import gymnasium

    if games is None:
        with Client(endpoint) as client:
            games = client.info["games"]
    ids = []
    for name in games:
        gid = env_id(name)
        gymnasium.registry.pop(gid, None)
        gymnasium.register(id=gid, entry_point=ENTRY_POINT,
                           kwargs=dict(kwargs, game=name, endpoint=endpoint))
        ids.append(gid)
    return ids


__all__ = ["ENTRY_POINT", "env_id", "register_envs"]
