"""bot.py — a parlor bot (PROTOCOL.md §12): plays the first legal action.

Spawned by the arena:   parlor tournament --agents 'random,cmd:python3 bot.py'
  (the endpoint comes in PARLOR_ENDPOINT), or connecting by itself to a
  tournament run with --arena tcp://0.0.0.0:5599 --agents 'random,bot:first':
  python3 bot.py tcp://HOST:5599 first
Needs pyzmq and msgpack.
"""
import os
import sys

import msgpack
import zmq


def choose(request):
    # Replace with your policy: request has game, seat, table, view (a map),
    # obs (floats), legal (action ids) and deadline_ms.
    return request["legal"][0]


def play(choose, endpoint, name, version="1.0"):
    # The message loop, until bye: answers every act with choose(act).
    # Other bots import this and pass their own choose.
    sock = zmq.Context().socket(zmq.DEALER)
    sock.connect(endpoint)
    sock.send(msgpack.packb({"v": 1, "id": 0, "type": "hello",
                             "name": name, "version": version}))
    played = won = 0
    while True:
        msg = msgpack.unpackb(sock.recv())
        if msg["type"] == "act":
            sock.send(msgpack.packb({"v": 1, "id": msg["id"], "type": "action",
                                     "action": choose(msg)}))
        elif msg["type"] == "result":  # one per game and seat played
            played += 1
            won += msg["ranks"][msg["seat"]] == 1
            if played % 100 == 0:
                print(f"{name}: {played} games, {won} won", file=sys.stderr)
        elif msg["type"] == "bye":  # the tournament is over
            return


def main():
    endpoint = sys.argv[1] if len(sys.argv) > 1 else os.environ["PARLOR_ENDPOINT"]
    name = sys.argv[2] if len(sys.argv) > 2 else "first-legal"
    play(choose, endpoint, name)


if __name__ == "__main__":
    main()
