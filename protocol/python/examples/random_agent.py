"""Plays Spoil-Five on a running `parlor serve` with random legal moves.

    build/parlor serve &
    PYTHONPATH=protocol/python /usr/bin/python3 \
        protocol/python/examples/random_agent.py [ENDPOINT]
"""
import sys

import parlor

endpoint = sys.argv[1] if len(sys.argv) > 1 else parlor.DEFAULT_ENDPOINT
env = parlor.Env("spoil_five", opponents="random", endpoint=endpoint)
for episode in range(5):
    obs, info = env.reset(seed=episode)
    total, done = 0.0, False
    while not done:
        action = env.action_space.sample(mask=info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        total, done = total + reward, terminated or truncated
    print(f"game {episode}: return {total:+g}")
env.close()
