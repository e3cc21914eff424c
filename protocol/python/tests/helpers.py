"""What the tests share: a live `parlor serve` per test class, and games
played with seeded random legal moves.

The server binary is $PARLOR_BIN (run-tests.sh sets it), else build/parlor
of this checkout. A server binds tcp://127.0.0.1:* (the server picks a free
port and prints the one it took, so no port is fixed or raced for) or an
ipc:// path in a fresh temporary directory; reading its "listening on" line
waits at most START_TIMEOUT. Stopping sends SIGTERM, waits, then kills, so
no test leaves a server behind.
"""

import os
import select
import shutil
import signal
import subprocess
import tempfile
import unittest

import numpy as np

from parlor import ParlorError

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
FIXTURES = os.path.join(REPO, "tests", "protocol", "fixtures")
START_TIMEOUT = 10.0  # seconds for a server to say where it listens
STOP_TIMEOUT = 5.0    # seconds for a server to exit on SIGTERM
CALL_TIMEOUT = 10.0   # seconds any test call may wait for a reply


def parlor_bin():
    """The parlor binary under test."""
    return os.environ.get("PARLOR_BIN") or os.path.join(REPO, "build",
                                                        "parlor")


class Server:
    """A `parlor serve` process; transport is "tcp" or "ipc", args are more
    command-line flags (limits). Use as a context manager or call stop()."""

    def __init__(self, transport="tcp", args=()):
        self._tmp = None
        if transport == "ipc":
            self._tmp = tempfile.mkdtemp(prefix="parlor-test-")
            bind = "ipc://" + os.path.join(self._tmp, "serve.sock")
        else:
            bind = "tcp://127.0.0.1:*"
        self.proc = subprocess.Popen(
            [parlor_bin(), "serve", "--bind", bind, "--quiet", *args],
            stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
        try:
            self.endpoint = self._read_endpoint()
        except BaseException:
            self.stop()
            raise

    def _read_endpoint(self):
        ready, _, _ = select.select([self.proc.stdout], [], [],
                                    START_TIMEOUT)
        if not ready:
            raise RuntimeError("parlor serve did not start in time")
        line = self.proc.stdout.readline().decode().strip()
        prefix = "parlor serve: listening on "
        if not line.startswith(prefix):
            raise RuntimeError(f"parlor serve said {line!r}")
        return line[len(prefix):]

    def stop(self):
        """Stops the server (idempotent); returns its exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc.stdout.close()
        if self._tmp:
            shutil.rmtree(self._tmp, ignore_errors=True)
        return self.proc.returncode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


class ServerCase(unittest.TestCase):
    """A test class with one live server, started before its first test
    and stopped after its last (even when a test fails)."""

    TRANSPORT = "tcp"
    SERVER_ARGS = ()

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.server = Server(cls.TRANSPORT, cls.SERVER_ARGS)
        cls.addClassCleanup(cls.server.stop)
        cls.endpoint = cls.server.endpoint


def pick(rng, mask):
    """A uniformly drawn legal action of an int8 mask."""
    legal = np.flatnonzero(mask)
    assert legal.size, "no legal action while a decision is due"
    return int(rng.choice(legal))


def play_env(env, seed, rng):
    """Plays one episode of a single-agent Env from seed with rng's random
    legal moves. Returns its trace: per step (obs bytes, mask bytes,
    action, reward, terminated, truncated), then the last obs bytes."""
    obs, info = env.reset(seed=seed)
    trace, done = [], False
    while not done:
        action = pick(rng, info["action_mask"])
        seen = (obs.tobytes(), info["action_mask"].tobytes(), action)
        obs, reward, terminated, truncated, info = env.step(action)
        trace.append(seen + (reward, terminated, truncated))
        done = terminated or truncated
    trace.append(obs.tobytes())
    return trace


def play_aec(env, seed, rng):
    """Plays one game of an AECEnv through agent_iter. Returns the list of
    (agent, obs bytes, action, cumulative reward) it went through."""
    env.reset(seed=seed)
    trace = []
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        action = None
        if not (termination or truncation):
            action = pick(rng, obs["action_mask"])
        trace.append((agent, obs["observation"].tobytes(), action, reward))
        env.step(action)
    return trace


def random_actions(rng, info):
    """One random legal action per env of a vector env's info."""
    return [pick(rng, m) for m in info["action_mask"]]


def record(venv, seed, steps, rng):
    """Steps venv from seed with random legal actions; returns, per env,
    the list of (obs bytes, seat, action, reward, terminated, truncated,
    final obs bytes or None, final seat or None)."""
    obs, info = venv.reset(seed=seed)
    traces = [[] for _ in range(venv.num_envs)]
    for _ in range(steps):
        acts = random_actions(rng, info)
        before, seats = obs.copy(), info["seat"].copy()
        obs, rew, term, trunc, info = venv.step(acts)
        ended = iter(zip(info["final_obs_rows"], info["final_seat"]))
        for i, trace in enumerate(traces):
            final = (None, None)
            if term[i] or trunc[i]:
                row, seat = next(ended)
                final = (row.tobytes(), int(seat))
            trace.append((before[i].tobytes(), int(seats[i]), acts[i],
                          np.array(rew[i]).tolist(), bool(term[i]),
                          bool(trunc[i])) + final)
    return traces


def check_illegal_moves_nothing(test, venv, twin, env, seed):
    """Resets venv and twin (alike) from seed, has venv refuse an illegal
    action of env with ILLEGAL_ACTION naming it, then checks that a legal
    step still gives twin's observations. Returns venv's last info."""
    _, info = venv.reset(seed=seed)
    twin.reset(seed=seed)
    acts = random_actions(np.random.default_rng(11), info)
    bad = list(acts)
    bad[env] = int(np.flatnonzero(info["action_mask"][env] == 0)[0])
    with test.assertRaises(ParlorError) as cm:
        venv.step(bad)
    test.assertEqual(cm.exception.name, "ILLEGAL_ACTION")
    test.assertIn(f"env {env}", cm.exception.message)
    obs, _, _, _, info = venv.step(acts)
    test.assertEqual(obs.tobytes(), twin.step(acts)[0].tobytes())
    return info
