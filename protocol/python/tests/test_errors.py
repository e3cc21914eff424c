"""Every kind of bad request gets its error reply (code, name, sentence)
while another client keeps stepping unharmed.

The server runs with small limits (--max-msg 4096 --max-envs 4) so that
oversize messages and the envs-per-client limit are cheap to reach. In
every test a bystander client steps its env before and after the bad
requests, and a twin env with the same seed, stepped in lockstep through
a third connection, must see the very same observations: the bad requests
disturbed nothing. The shared fixtures' bad messages are replayed too.
"""

import os

import msgpack
import numpy as np
import zmq

from helpers import CALL_TIMEOUT, FIXTURES, ServerCase
from parlor import ERROR_CODES, Client, Env, ParlorError, ParlorTimeout
from parlor.wire import decode_reply

MAX_MSG = 4096
MAX_ENVS = 4


class Errors(ServerCase):
    SERVER_ARGS = ("--max-msg", str(MAX_MSG), "--max-envs", str(MAX_ENVS))

    def setUp(self):
        self.bystander = self.env()
        self.twin = self.env()
        self.seen = [self.bystander.reset(seed=42), self.twin.reset(seed=42)]
        self.c = self.client()
        self.step_bystander()

    def tearDown(self):
        self.step_bystander()
        self.c.ping()  # the offender's connection still works

    def client(self):
        c = Client(self.endpoint, timeout=CALL_TIMEOUT)
        self.addCleanup(c.close)
        return c

    def env(self, game="spoil_five"):
        env = Env(game, endpoint=self.endpoint, timeout=CALL_TIMEOUT)
        self.addCleanup(env.close)
        return env

    def step_bystander(self):
        """Steps bystander and twin with the same action; they must agree
        (a fresh deal for both when the game ends)."""
        obs, info = self.seen[0][0], self.seen[0][-1]
        self.assertEqual(obs.tobytes(), self.seen[1][0].tobytes())
        action = int(np.flatnonzero(info["action_mask"])[0])
        self.seen = [env.step(action) for env in (self.bystander, self.twin)]
        if self.seen[0][2] or self.seen[0][3]:
            self.seen = [env.reset() for env in (self.bystander, self.twin)]

    def expect(self, name, send, *args, **kw):
        """Asserts that send(*args, **kw) fails with wire error name, then
        steps the bystander. Returns the error."""
        with self.assertRaises(ParlorError) as cm:
            send(*args, **kw)
        err = cm.exception
        self.assertEqual((err.name, err.code), (name, ERROR_CODES[name]),
                         err.message)
        self.assertTrue(err.message)
        self.step_bystander()
        return err

    def raw(self, name, data):
        return self.expect(name, self.c.call_raw, data)

    def made(self, **kw):
        return self.c.make("thirty_one(players=2)", **kw)["env"]

    # ---- the cases ----------------------------------------------------

    def test_malformed_msgpack(self):
        good = msgpack.packb({"v": 1, "id": 5, "type": "ping"})
        for data in (b"", b"\xc1", good[:-2], good + b"\x00",
                     msgpack.packb([1, 2, 3]), msgpack.packb({1: 2}),
                     b"\xdd\xff\xff\xff\xff"):
            with self.subTest(data=data):
                self.raw("MALFORMED", data)

    def test_damaged_message_keeps_its_id(self):
        # PROTOCOL.md §9: the id is echoed whenever it could be read.
        data = msgpack.packb({"v": 1, "id": 11, "type": "ping"})[:-2]
        self.assertEqual(self.raw("MALFORMED", data).reply["id"], 11)

    def test_extra_frames(self):
        sock = zmq.Context.instance().socket(zmq.DEALER)
        sock.setsockopt(zmq.LINGER, 0)
        self.addCleanup(sock.close)
        sock.connect(self.endpoint)
        ping = msgpack.packb({"v": 1, "id": 3, "type": "ping"})
        sock.send_multipart([ping, b"more"])
        self.assertTrue(sock.poll(int(CALL_TIMEOUT * 1000)))
        reply = decode_reply(sock.recv())
        self.assertEqual((reply["type"], reply["name"]),
                         ("error", "MALFORMED"))
        self.step_bystander()

    def test_shared_bad_fixtures(self):
        with open(os.path.join(FIXTURES, "MANIFEST")) as f:
            rows = [line.split() for line in f if line[0] != "#"]
        for name, _, expect in rows:
            if not name.startswith("bad_"):
                continue
            with self.subTest(name), \
                    open(os.path.join(FIXTURES, name + ".msgpack"), "rb") as f:
                self.raw(expect, f.read())

    def test_wrong_types(self):
        env = self.made()
        self.expect("BAD_TYPE", self.c.call, "reset", env="one", seed=1)
        self.expect("BAD_VALUE", self.c.call, "reset", env=env, seed=-1)
        self.expect("BAD_TYPE", self.c.call, "reset", env=env, seed=1.5)
        self.expect("BAD_TYPE", self.c.call, "make", game=31)
        self.expect("BAD_TYPE", self.c.call, "step", env=env, action="3")
        self.expect("BAD_TYPE", self.c.call, "step", env=env,
                    actions=["a"])
        self.expect("BAD_TYPE", self.c.call, "reset", env=env, seed=1,
                    view=1)
        # A required field given as nil is of the wrong type (§2).
        self.expect("BAD_TYPE", self.c.call, "reset", env=env, seed=None)
        self.raw("BAD_TYPE", msgpack.packb({"v": "1", "id": 1,
                                            "type": "ping"}))
        self.raw("BAD_TYPE", msgpack.packb({"v": 1, "id": 1, "type": 7}))

    def test_missing_fields(self):
        env = self.made()
        self.expect("MISSING_FIELD", self.c.call, "reset", env=env)
        self.expect("MISSING_FIELD", self.c.call, "reset", seed=1)
        self.expect("MISSING_FIELD", self.c.call, "make")
        self.expect("MISSING_FIELD", self.c.call, "describe")
        self.c.reset(env, 1)
        self.expect("MISSING_FIELD", self.c.call, "step", env=env)
        self.raw("MISSING_FIELD", msgpack.packb({"id": 1, "type": "ping"}))
        self.raw("MISSING_FIELD", msgpack.packb({"v": 1, "id": 1}))

    def test_unknown_command(self):
        err = self.expect("UNKNOWN_TYPE", self.c.call, "dance")
        self.assertEqual(err.reply["id"], self.c._id)  # answered in kind
        self.expect("UNKNOWN_TYPE", self.c.call, "timestep")
        self.expect("UNKNOWN_TYPE", self.c.call, "error")

    def test_version(self):
        self.raw("VERSION", msgpack.packb({"v": 99, "id": 1,
                                           "type": "ping"}))
        self.raw("VERSION", msgpack.packb({"v": 0, "id": 1,
                                           "type": "ping"}))

    def test_unknown_or_closed_env(self):
        self.expect("UNKNOWN_ENV", self.c.step, 123456789, 0)
        self.expect("UNKNOWN_ENV", self.c.reset, 0, 1)
        env = self.made()
        self.c.close_env(env)
        self.expect("UNKNOWN_ENV", self.c.reset, env, 1)
        self.expect("UNKNOWN_ENV", self.c.step, env, 0)
        self.expect("UNKNOWN_ENV", self.c.close_env, env)
        # The bystander's env is not this client's to touch.
        for send in (self.c.step, self.c.close_env):
            self.expect("UNKNOWN_ENV", send, self.bystander.env_id)

    def test_illegal_actions(self):
        env = self.made(opponents="random")
        ts = self.c.reset(env, 3, names=True)
        illegal = min(set(range(64)) - set(ts["legal_ids"]))
        for action in (illegal, -1, 9999, 2 ** 40):
            with self.subTest(action=action):
                self.expect("ILLEGAL_ACTION", self.c.step, env, action)
        self.c.step(env, ts["legal_ids"][0])  # nothing had moved

    def test_state(self):
        env = self.made()
        self.expect("STATE", self.c.step, env, 0)  # never reset

    def test_wrong_batch_size(self):
        venv = self.made(n=3)
        self.c.reset(venv, 1)
        for actions in ([0, 0], [0, 0, 0, 0], [],
                        np.zeros(5, "<i4").tobytes()):
            with self.subTest(n=len(actions)):
                self.expect("BAD_BATCH", self.c.step, venv, actions=actions)
        self.expect("BAD_VALUE", self.c.step, venv, 0)  # action, not actions
        self.expect("BAD_VALUE", self.c.step, venv, actions=b"\x00" * 5)
        plain = self.made()
        self.c.reset(plain, 1)
        self.expect("BAD_BATCH", self.c.step, plain, actions=[0, 0, 0])
        self.expect("BAD_VALUE", self.c.step, plain, 0, actions=[0, 0])
        # A single-agent plain env takes action only (§9).
        self.c.close_env(plain)  # room for it within MAX_ENVS
        single = self.made(opponents="random")
        self.c.reset(single, 1)
        for actions in ([0], [0, 0]):
            self.expect("BAD_VALUE", self.c.step, single, actions=actions)

    def test_bad_spec(self):
        self.expect("BAD_VALUE", self.c.describe, "x" * 2000)  # too long
        self.expect("BAD_SPEC", self.c.make, "no_such_game")
        self.expect("BAD_SPEC", self.c.make, "spoil_five(players=99)")
        self.expect("BAD_SPEC", self.c.make, "spoil_five",
                    opponents="nobody")
        self.expect("BAD_SPEC", self.c.make, "spoil_five",
                    opponents="random", seat=7)
        self.expect("BAD_VALUE", self.c.make, "spoil_five", seat=1)
        self.expect("BAD_VALUE", self.c.make, "spoil_five", n=0)

    def test_oversize_message(self):
        err = self.expect("TOO_BIG", self.c.hello, "x" * (MAX_MSG + 1))
        self.assertEqual(err.reply["id"], self.c._id)
        self.expect("TOO_BIG", self.c.call, "ping", pad=b"\0" * MAX_MSG)

    def test_far_oversize_message_drops_the_connection(self):
        # Past 4 x max_msg the transport drops the message and the
        # connection rather than buffer it (PROTOCOL.md §1): no reply
        # comes, but the server goes on, and the client, reconnecting with
        # its own routing id, still has its envs.
        big = Client(self.endpoint, timeout=1.0)
        self.addCleanup(big.close)
        env = big.make("thirty_one")["env"]
        with self.assertRaises(ParlorTimeout):
            big.call("ping", pad=b"\0" * (5 * MAX_MSG))
        self.step_bystander()
        big.set_timeout(CALL_TIMEOUT)
        self.assertEqual(big.reset(env, 1)["steps"], 0)
        big.close_env(env)

    def test_too_many_envs(self):
        self.expect("LIMIT", self.c.make, "spoil_five", n=MAX_ENVS + 1)
        envs = [self.made() for _ in range(MAX_ENVS - 1)]
        envs.append(self.made())
        self.expect("LIMIT", self.made)
        self.expect("LIMIT", self.made, n=2)
        self.c.close_env(envs.pop())
        envs.append(self.made())  # room again once one is closed
        # The limit is per client: another client still makes envs.
        other = self.client()
        other.close_env(other.make("spoil_five")["env"])
