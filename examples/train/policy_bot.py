"""policy_bot.py — plays a trained checkpoint (train.py's policy.pt) as a
parlor tournament bot (PROTOCOL.md §12), greedily: the legal action with
the highest probability. Give the tournament a --move-time that covers
loading PyTorch (a few seconds) for the first move.

Spawned by the arena (the endpoint comes in PARLOR_ENDPOINT):
    parlor tournament --game 'thirty_one(players=2)' --out runs/t \\
      --agents 'random,ppo=cmd:/usr/bin/python3 examples/train/policy_bot.py CKPT'
Connecting by itself to a tournament run with --arena ENDPOINT and an
agent bot:NAME:
    /usr/bin/python3 examples/train/policy_bot.py CKPT ENDPOINT NAME

The message loop is protocol/examples/bot.py's. The checkpoint names the
game it was trained on; asked to play another game (or handed an
observation of another size) the bot stops with a message on stderr, and
the arena records the forfeit. Needs PyTorch (Debian: python3-torch).
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "protocol", "examples"))

import bot  # noqa: E402


def chooser(path):
    """A bot.play choose function playing the checkpoint at path greedily.
    PyTorch and the checkpoint are loaded at the first request, not
    before the hello: importing torch can take longer on a loaded machine
    than the arena waits for a spawned bot's hello (10 s)."""
    loaded = []

    def choose(request):
        if not loaded:
            import torch
            import policy as pol
            torch.set_num_threads(1)  # one table per process: no pool
            loaded.extend((pol,) + pol.load(path))
        pol, policy, ckpt = loaded
        if request["game"] != ckpt["game"] or len(request["obs"]) != \
                policy.obs_size:
            sys.exit(f"policy_bot: {path} plays {ckpt['game']} "
                     f"({policy.obs_size} observation floats); asked to "
                     f"play {request['game']} ({len(request['obs'])})")
        return pol.greedy(policy, request["obs"], request["legal"])
    return choose


def main(argv):
    if len(argv) not in (2, 4):
        sys.exit("usage: policy_bot.py CHECKPOINT [ENDPOINT NAME] "
                 "(without ENDPOINT: $PARLOR_ENDPOINT, as cmd: bots get)")
    if not os.path.isfile(argv[1]):
        sys.exit(f"policy_bot: no checkpoint at {argv[1]}")
    endpoint = argv[2] if len(argv) == 4 else os.environ.get(
        "PARLOR_ENDPOINT")
    if not endpoint:
        sys.exit("policy_bot: no endpoint: give ENDPOINT NAME or set "
                 "PARLOR_ENDPOINT")
    name = argv[3] if len(argv) == 4 else "policy"
    bot.play(chooser(argv[1]), endpoint, name)


if __name__ == "__main__":
    main(sys.argv)
