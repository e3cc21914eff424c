"""bot.py — a parlor bot (PROTOCOL.md §12): plays the first legal action.

Run by the arena: parlor tournament --agents 'random,cmd:python3 bot.py'.
The arena passes its endpoint in PARLOR_ENDPOINT. Needs pyzmq, msgpack.
"""
import os

import msgpack
import zmq


def choose(request):
    # Replace with your policy: request has game, seat, view (a map),
    # obs (floats), legal (action ids) and deadline_ms.
    return request["legal"][0]


def main():
    sock = zmq.Context().socket(zmq.PAIR)
    sock.connect(os.environ["PARLOR_ENDPOINT"])
    hello = {"v": 1, "id": 0, "type": "hello", "name": "first-legal",
             "version": "1.0"}
    sock.send(msgpack.packb(hello))
    while True:
        msg = msgpack.unpackb(sock.recv())
        if msg["type"] == "act":
            answer = {"v": 1, "id": msg["id"], "type": "action",
                      "action": choose(msg)}
            sock.send(msgpack.packb(answer))


if __name__ == "__main__":
    main()
