"""bot.py — a parlor bot (PROTOCOL.md §12): plays the first legal action.

Spawned by the arena:   parlor tournament --agents 'random,cmd:python3 bot.py'
  (the endpoint comes in PARLOR_ENDPOINT and the secret to say in hello in
  PARLOR_SECRET), or connecting by itself to a tournament run with
  --arena tcp://0.0.0.0:5599 --agents 'random,bot:first':
  python3 bot.py tcp://HOST:5599 first
With CURVE (the arena run with --curve-secret and --allow), give the
arena's public key file and this bot's key pair (from parlor keygen) in
PARLOR_SERVER_KEY=arena.key and PARLOR_KEY=first.key_secret; the name
must then be the key's (first.key in the arena's --allow directory).
Needs pyzmq and msgpack.
"""
import os
import sys

import msgpack
import zmq
import zmq.auth


def choose(request):
    # Replace with your policy: request has game, seat, table, view (a map),
    # obs (floats), legal (action ids) and deadline_ms.
    return request["legal"][0]


def play(choose, endpoint, name, version="1.0"):
    # The message loop, until bye: answers every act with choose(act).
    # Other bots import this and pass their own choose.
    sock = zmq.Context().socket(zmq.DEALER)
    if os.environ.get("PARLOR_SERVER_KEY"):
        sock.curve_serverkey = zmq.auth.load_certificate(
            os.environ["PARLOR_SERVER_KEY"])[0]
        sock.curve_publickey, sock.curve_secretkey = zmq.auth.load_certificate(
            os.environ["PARLOR_KEY"])
    sock.connect(endpoint)
    sock.send(msgpack.packb({"v": 1, "id": 0, "type": "hello", "name": name,
                             "version": version,
                             "secret": os.environ.get("PARLOR_SECRET", "")}))
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
        elif msg["type"] == "error":  # hello refused
            sys.exit(f"{name}: {msg['message']}")
        elif msg["type"] == "bye":  # the tournament is over
            return


def main():
    endpoint = sys.argv[1] if len(sys.argv) > 1 else os.environ["PARLOR_ENDPOINT"]
    name = sys.argv[2] if len(sys.argv) > 2 else "first-legal"
    play(choose, endpoint, name)


if __name__ == "__main__":
    main()
