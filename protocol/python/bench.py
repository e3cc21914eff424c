#!/usr/bin/python3
"""bench.py — what the Python client gets out of a parlor server, beside
what ZeroMQ alone gives for the same messages.

    /usr/bin/python3 protocol/python/bench.py [PARLOR_BIN] [--seconds S]
        [--game SPEC] [--transport tcp|ipc|both] [--sizes 64,256]
        [--servers 1,2,4 [--opponents AGENTS]]

Starts `parlor serve` on tcp loopback and on an ipc path and measures, for
each: unbatched steps/s of a single-agent Env (random opponents, the
learner playing its first legal action), and env-steps/s of a VectorEnv of
64 and 256 envs (one message per batch). Each figure stands beside a raw
ZeroMQ round trip measured in the same run with the same request and reply
sizes: a DEALER socket, like the client's, against an echo thread in this
script that answers every request with a reply of the server's size. The
ratios printed are the client's rate over the raw one (targets: unbatched
>= 0.8) and batched env-steps/s over unbatched steps/s (target for 64
envs: >= 30).

With --servers 1,2,4 it measures instead env-steps/s of one VectorEnv
whose envs are spread over 1, 2 and 4 servers (ipc, each its own `parlor
serve`), for each batch size of --sizes, measurements alternating between
the server counts, each figure beside its ratio to the one-server figure.

The machine may be busy with other work, which makes wall-clock rates
noisy: every figure is the best of several short measurements taken in
alternation with its raw reference, and beside it the CPU time spent per
step (this process, plus the server process for parlor; for the raw round
trip, both of its ends live in this process), which load disturbs far
less.
"""

import argparse
import os
import shutil
import sys
import tempfile
import threading
import time

import msgpack
import numpy as np
import zmq

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "tests"))

import parlor  # noqa: E402
from helpers import Server  # noqa: E402
from parlor.wire import encode_request  # noqa: E402

CHECK_EVERY = 32      # iterations between two looks at the clock
ECHO_POLL_MS = 100    # how often the echo thread looks for close()
RAW_TIMEOUT_MS = 10000  # a raw round trip that takes longer is a failure


def cpu_seconds(pid):
    """User plus system CPU seconds process pid has used (/proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Meter:
    """Measures fn: best calls/s over the runs, and CPU seconds per call
    summed over them, of this process and of process pid (if given)."""

    def __init__(self, fn, pid=None):
        self.fn = fn
        self.pid = pid
        self.best = 0.0
        self.calls = 0
        self.cpu = [0.0, 0.0]  # this process, pid

    def run(self, seconds):
        """Calls fn for about seconds (after a short warm-up)."""
        for _ in range(CHECK_EVERY):
            self.fn()
        cpu0 = time.process_time(), self._pid_cpu()
        calls, start = 0, time.perf_counter()
        while True:
            for _ in range(CHECK_EVERY):
                self.fn()
            calls += CHECK_EVERY
            now = time.perf_counter()
            if now >= start + seconds:
                break
        self.best = max(self.best, calls / (now - start))
        self.calls += calls
        self.cpu[0] += time.process_time() - cpu0[0]
        self.cpu[1] += self._pid_cpu() - cpu0[1]

    def _pid_cpu(self):
        return cpu_seconds(self.pid) if self.pid else 0.0

    def us_per_call(self):
        """(this process, pid) CPU microseconds per call."""
        return tuple(1e6 * c / max(1, self.calls) for c in self.cpu)


# ---- the raw reference ------------------------------------------------------


class Echo:
    """A ROUTER socket in a thread answering each request with a reply of
    reply_bytes bytes (the server's socket type and reply size). Its
    receives time out every ECHO_POLL_MS so that close() is heard."""

    def __init__(self, endpoint, reply_bytes):
        self.sock = zmq.Context.instance().socket(zmq.ROUTER)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.setsockopt(zmq.RCVTIMEO, ECHO_POLL_MS)
        self.sock.bind(endpoint)
        self.endpoint = self.sock.getsockopt_string(zmq.LAST_ENDPOINT)
        self.reply = b"r" * reply_bytes
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.stopping.is_set():
            try:
                ident, _ = self.sock.recv_multipart()
            except zmq.Again:
                continue
            self.sock.send_multipart([ident, self.reply])

    def close(self):
        self.stopping.set()
        self.thread.join()
        self.sock.close()


class PingPong:
    """A DEALER socket and an Echo: the raw round trip."""

    def __init__(self, endpoint, request_bytes, reply_bytes):
        self.echo = Echo(endpoint, reply_bytes)
        self.sock = zmq.Context.instance().socket(zmq.DEALER)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.setsockopt(zmq.RCVTIMEO, RAW_TIMEOUT_MS)
        self.sock.connect(self.echo.endpoint)
        self.request = b"q" * request_bytes

    def round_trip(self):
        self.sock.send(self.request)
        self.sock.recv()

    def close(self):
        self.sock.close()
        self.echo.close()


def echo_endpoint(transport, tmp):
    if transport == "ipc":
        return "ipc://" + os.path.join(tmp, "echo.sock")
    return "tcp://127.0.0.1:*"


# ---- the client's steppers --------------------------------------------------


def unbatched(endpoint, game):
    """A single-agent Env and a function stepping it once (a new deal
    when the game ends)."""
    env = parlor.Env(game, endpoint=endpoint)
    state = {"info": env.reset(seed=1)[1]}

    def step():
        _, _, term, trunc, info = env.step(
            int(state["info"]["action_mask"].argmax()))
        state["info"] = env.reset()[1] if term or trunc else info

    def sizes():
        action = int(state["info"]["action_mask"].argmax())
        out = measure(env.client, "step", {"env": env.env_id,
                                           "action": action})
        state["info"] = env.reset(seed=2)[1]  # measure stepped it
        return out

    return env, step, sizes


def batched(endpoint, game, n):
    """A VectorEnv of n and a function stepping it once."""
    venv = parlor.VectorEnv(game, n, endpoint=endpoint)
    state = {"info": venv.reset(seed=1)[1]}

    def actions():
        return state["info"]["action_mask"].argmax(axis=1)

    def step():
        state["info"] = venv.step(actions())[4]

    def sizes():
        blob = np.ascontiguousarray(actions(), "<i4").tobytes()
        out = measure(venv.client, "step", {"env": venv.env_id,
                                            "actions": blob})
        state["info"] = venv.reset(seed=2)[1]  # measure stepped it
        return out

    return venv, step, sizes


def measure(client, type_, fields):
    """Sizes of one more request like the stepper's and of its reply."""
    data = encode_request(client.version, 1 << 40, type_, fields)
    return len(data), len(client.exchange(data))


def floor(endpoint, game):
    """A single-agent env stepped with the least client work there is: a
    request packed by msgpack alone, the reply decoded by msgpack alone,
    the lowest legal bit played. What the server costs, without parlor's
    client around it."""
    client = parlor.Client(endpoint)
    env = client.make(game, opponents="random")["env"]
    packer = msgpack.Packer()
    state = {"ts": client.reset(env, 1), "seed": 1}

    def step():
        legal = int.from_bytes(state["ts"]["legal"], "little")
        request = {"v": 1, "id": 0, "type": "step", "env": env,
                   "action": (legal & -legal).bit_length() - 1}
        ts = msgpack.unpackb(client.exchange(packer.pack(request)))
        while ts["terminated"] or ts["truncated"]:
            state["seed"] += 1
            ts = client.reset(env, state["seed"])
        state["ts"] = ts

    return client, step


def compare(stepper, endpoint, args, pid, extra=None):
    """Meters of the stepper's steps, of raw round trips of the same sizes
    and of extra's steps if given (None else), run in alternation so that
    all see the same load from whatever else runs. Returns (meters,
    request bytes, reply bytes)."""
    env, step, sizes = stepper
    req, rep = sizes()
    raw = PingPong(endpoint, req, rep)
    meters = [Meter(step, pid), Meter(raw.round_trip)]
    if extra:
        meters.append(Meter(extra[1], pid))
    try:
        for _ in range(args.rounds):
            for meter in meters:
                meter.run(args.seconds)
    finally:
        raw.close()
        env.close()
        if extra:
            extra[0].close()
    if not extra:
        meters.append(None)
    return meters, req, rep


def cpu_text(meter, n=1):
    """CPU per env-step of a meter: 'client + server' or one figure."""
    mine, theirs = (c / n for c in meter.us_per_call())
    if meter.pid:
        return f"{mine:.1f} + {theirs:.1f} us"
    return f"{mine:.1f} us"


# ---- report -----------------------------------------------------------------


def run(transport, args, tmp):
    server = Server(transport, ("--max-envs", "100000"))
    echo = echo_endpoint(transport, tmp)
    pid = server.proc.pid
    try:
        ep = server.endpoint
        (env, raw, low), req, rep = compare(
            unbatched(ep, args.game), echo, args, pid, floor(ep, args.game))
        print(f"{transport} unbatched: {env.best:.0f} steps/s, raw "
              f"{raw.best:.0f} round trips/s of {req} B / {rep} B: "
              f"client/raw {env.best / raw.best:.2f}; msgpack-only client "
              f"{low.best / raw.best:.2f} of raw")
        print(f"    CPU per step: client + server {cpu_text(env)} "
              f"(msgpack-only client {cpu_text(low)}), raw both ends "
              f"{cpu_text(raw)}")
        for n in args.sizes:
            (venv, braw, _), breq, brep = compare(
                batched(ep, args.game, n), echo, args, pid)
            print(f"{transport} batch of {n}: {venv.best * n:.0f} steps/s, "
                  f"raw {braw.best:.0f} round trips/s of {breq} B / "
                  f"{brep} B: client/raw {venv.best / braw.best:.2f}; "
                  f"{venv.best * n / env.best:.1f}x unbatched")
            print(f"    CPU per env-step: client + server "
                  f"{cpu_text(venv, n)}; per batch raw both ends "
                  f"{cpu_text(braw)}")
    finally:
        server.stop()


def spread_run(args, tmp):
    """--servers: one VectorEnv over 1, 2, 4... servers, as ratios."""
    servers = [Server("ipc") for _ in range(max(args.servers))]
    try:
        endpoints = [s.endpoint for s in servers]
        for n in args.sizes:
            meters = {}
            for count in args.servers:
                venv = parlor.VectorEnv(args.game, n,
                                        opponents=args.opponents,
                                        endpoint=endpoints[:count])
                state = {"info": venv.reset(seed=1)[1]}

                def step(venv=venv, state=state):
                    acts = state["info"]["action_mask"].argmax(axis=-1)
                    state["info"] = venv.step(acts)[4]
                meters[count] = (Meter(step), venv)
            for _ in range(args.rounds):
                for meter, _ in meters.values():
                    meter.run(args.seconds)
            base = meters[args.servers[0]][0].best * n
            for count, (meter, venv) in meters.items():
                print(f"batch of {n} over {count} server(s): "
                      f"{meter.best * n:.0f} env-steps/s, "
                      f"{meter.best * n / base:.2f}x {args.servers[0]} "
                      f"server(s)")
                venv.close()
    finally:
        for server in servers:
            server.stop()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("parlor", nargs="?",
                    default=os.path.join(here, "..", "..", "build", "parlor"))
    ap.add_argument("--seconds", type=float, default=0.5,
                    help="length of one measurement")
    ap.add_argument("--rounds", type=int, default=5,
                    help="measurements of each figure; the best is kept")
    ap.add_argument("--game", default="spoil_five")
    ap.add_argument("--transport", choices=("tcp", "ipc", "both"),
                    default="both")
    ap.add_argument("--sizes", default="64,256")
    ap.add_argument("--servers", default="",
                    help="e.g. 1,2,4: a VectorEnv spread over that many "
                    "servers, instead of the client/raw comparison")
    ap.add_argument("--opponents", default="random",
                    help="with --servers: the built-in opponents (a "
                    "costlier agent makes the servers the bottleneck)")
    args = ap.parse_args()
    args.sizes = [int(s) for s in args.sizes.split(",")]
    args.servers = [int(s) for s in args.servers.split(",") if s]
    os.environ["PARLOR_BIN"] = os.path.abspath(args.parlor)
    print(f"game {args.game}, single-agent envs against random opponents; "
          f"best of {args.rounds} x {args.seconds:g} s, client and raw "
          f"alternating")
    tmp = tempfile.mkdtemp(prefix="parlor-bench-")
    try:
        if args.servers:
            return spread_run(args, tmp)
        for transport in ("tcp", "ipc"):
            if args.transport in (transport, "both"):
                run(transport, args, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
