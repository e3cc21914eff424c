"""The low-level Client: hello and version negotiation, describe, make,
close, bounded waits, and late replies, against a live server and against
tiny fake servers run in a thread (for what a real server never does)."""

import os
import tempfile
import threading
import time
import unittest

import msgpack
import zmq

from helpers import CALL_TIMEOUT, ServerCase
from parlor import (ERROR_CODES, PROTOCOL_VERSION, Client, ParlorClosed,
                    ParlorError, ParlorTimeout)


class FakeServer:
    """A ROUTER socket in a thread that sends, for each request, the list
    of replies answer(request) returns (none, to hold a reply back). Its
    polls are bounded, so stop() ends it promptly."""

    def __init__(self, answer):
        self.ctx = zmq.Context.instance()
        self.sock = self.ctx.socket(zmq.ROUTER)
        self.sock.setsockopt(zmq.LINGER, 0)
        port = self.sock.bind_to_random_port("tcp://127.0.0.1")
        self.endpoint = f"tcp://127.0.0.1:{port}"
        self.answer = answer
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.stopping.is_set():
            if not self.sock.poll(50):
                continue
            ident, data = self.sock.recv_multipart()
            request = msgpack.unpackb(data)
            for reply in self.answer(request):
                self.sock.send_multipart([ident, msgpack.packb(reply)])

    def stop(self):
        self.stopping.set()
        self.thread.join(CALL_TIMEOUT)
        self.sock.close()


def hello_reply(request, versions, v):
    return {"v": v, "id": request["id"], "type": "hello",
            "server": "fake", "versions": versions, "games": [],
            "max_msg": 1024, "max_envs": 1, "idle_timeout": 1.0}


class Negotiation(unittest.TestCase):
    def fake(self, answer):
        server = FakeServer(answer)
        self.addCleanup(server.stop)
        return server

    def test_settles_on_highest_common_version(self):
        seen = []

        def answer(req):
            seen.append(req)
            if req["type"] == "hello":
                # A newer server answers in the highest version it shares
                # with the client's offer (PROTOCOL.md §4).
                return [hello_reply(req, [1, PROTOCOL_VERSION + 3],
                                    PROTOCOL_VERSION)]
            return [{"v": req["v"], "id": req["id"], "type": "ping"}]

        server = self.fake(answer)
        with Client(server.endpoint, timeout=CALL_TIMEOUT) as c:
            self.assertEqual(seen[0]["v"], PROTOCOL_VERSION)
            self.assertEqual(c.version, PROTOCOL_VERSION)
            c.ping()
        self.assertEqual(seen[1]["v"], PROTOCOL_VERSION)

    def test_refuses_a_server_too_new(self):
        server = self.fake(lambda req: [hello_reply(
            req, [PROTOCOL_VERSION + 1, PROTOCOL_VERSION + 2],
            PROTOCOL_VERSION + 1)])
        with self.assertRaises(ParlorError) as cm:
            Client(server.endpoint, timeout=CALL_TIMEOUT)
        self.assertEqual(cm.exception.name, "VERSION")
        self.assertEqual(cm.exception.code, ERROR_CODES["VERSION"])

    def test_late_reply_is_dropped(self):
        # The first ping's reply is held back until the second ping comes,
        # so the client has given up on it; then both replies arrive, the
        # late one first, and the second ping must get its own.
        def answer(req):
            if req["id"] == 1:
                return []
            ping = {"v": 1, "type": "ping"}
            return [dict(ping, id=1, marker="late"),
                    dict(ping, id=req["id"], marker="fresh")]

        server = self.fake(answer)
        c = Client(server.endpoint, timeout=0.1, hello=False)
        self.addCleanup(c.close)
        with self.assertRaises(ParlorTimeout):
            c.ping()
        c.set_timeout(CALL_TIMEOUT)
        self.assertEqual(c.ping()["marker"], "fresh")

    def test_no_server_times_out(self):
        # Nothing listens on this endpoint (a socket bound then closed).
        probe = zmq.Context.instance().socket(zmq.ROUTER)
        port = probe.bind_to_random_port("tcp://127.0.0.1")
        probe.close()
        start = time.monotonic()
        with self.assertRaises(ParlorTimeout) as cm:
            Client(f"tcp://127.0.0.1:{port}", timeout=0.2)
        self.assertLess(time.monotonic() - start, CALL_TIMEOUT)
        self.assertEqual(cm.exception.code, 0)

    def test_no_server_is_reported_helpfully(self):
        # With the default call timeout (60 s) the first hello still waits
        # only connect_timeout, and the error says what to do.
        with tempfile.TemporaryDirectory() as tmp:
            endpoint = "ipc://" + os.path.join(tmp, "nobody.sock")
            start = time.monotonic()
            with self.assertRaises(ParlorTimeout) as cm:
                Client(endpoint, connect_timeout=0.3)
            self.assertLess(time.monotonic() - start, 30)
        self.assertIn("parlor serve", cm.exception.message)
        self.assertIn(endpoint, cm.exception.message)

    def test_closed_client_says_so(self):
        server = self.fake(lambda req: [dict(req)])
        c = Client(server.endpoint, timeout=CALL_TIMEOUT, hello=False)
        c.close()
        with self.assertRaises(ParlorClosed) as cm:
            c.ping()
        self.assertEqual(cm.exception.name, "CLOSED")


class LiveClient(ServerCase):
    def client(self, **kw):
        c = Client(self.endpoint, timeout=CALL_TIMEOUT, **kw)
        self.addCleanup(c.close)
        return c

    def test_hello(self):
        c = self.client(name="test_client")
        info = c.info
        self.assertTrue(info["server"].startswith("parlor"))
        low, high = info["versions"]
        self.assertLessEqual(low, PROTOCOL_VERSION)
        self.assertIn("spoil_five", info["games"])
        self.assertIn("thirty_one", info["games"])
        self.assertGreater(info["max_msg"], 0)
        self.assertGreater(info["max_envs"], 0)

    def test_describe(self):
        d = self.client().describe("spoil_five(players=5)")
        self.assertEqual(d["players"], 5)
        self.assertEqual(d["name"], "spoil_five")
        self.assertEqual(d["mask_bytes"], 8 * -(-d["num_actions"] // 64))
        segs = d["obs_layout"]
        self.assertEqual(sum(s["size"] for s in segs), d["obs_size"])
        with self.assertRaises(ParlorError) as cm:
            self.client().describe("spoil_five(players=11)")
        self.assertEqual(cm.exception.name, "BAD_SPEC")

    def test_make_reset_step_close(self):
        c = self.client()
        made = c.make("thirty_one(players=3)", opponents="random", seat=2)
        self.assertEqual((made["players"], made["learner"]), (3, 2))
        self.assertTrue(0 < made["env"] < 2 ** 53)  # exact in a double
        self.assertEqual(made["opponents"], ["random", "random", None])
        ts = c.reset(made["env"], 5, names=True)
        self.assertEqual(ts["seat"], 2)
        self.assertEqual(ts["steps"], 0)
        ts = c.step(made["env"], ts["legal_ids"][0])
        self.assertEqual(ts["steps"], 1)
        self.assertEqual(c.close_env(made["env"])["env"], made["env"])
        with self.assertRaises(ParlorError) as cm:
            c.close_env(made["env"])
        self.assertEqual(cm.exception.name, "UNKNOWN_ENV")

    def test_pipelined_requests_answered_in_order(self):
        # PROTOCOL.md §1: a DEALER may send several requests before reading;
        # the replies come one per request, in order, with their ids.
        sock = zmq.Context.instance().socket(zmq.DEALER)
        sock.setsockopt(zmq.LINGER, 0)
        self.addCleanup(sock.close)
        sock.connect(self.endpoint)
        for id_ in (7, 8, 9):
            sock.send(msgpack.packb({"v": 1, "id": id_, "type": "ping"}))
        got = []
        for _ in range(3):
            self.assertTrue(sock.poll(int(CALL_TIMEOUT * 1000)))
            got.append(msgpack.unpackb(sock.recv())["id"])
        self.assertEqual(got, [7, 8, 9])

    def test_req_socket_and_missing_id(self):
        # PROTOCOL.md §1-2: a REQ socket (with its empty delimiter) is
        # answered in kind, and a request without id gets a nil id back.
        sock = zmq.Context.instance().socket(zmq.REQ)
        sock.setsockopt(zmq.LINGER, 0)
        self.addCleanup(sock.close)
        sock.connect(self.endpoint)
        sock.send(msgpack.packb({"v": 1, "type": "ping"}))
        self.assertTrue(sock.poll(int(CALL_TIMEOUT * 1000)))
        reply = msgpack.unpackb(sock.recv())
        self.assertEqual((reply["type"], reply["id"]), ("ping", None))

    def test_hello_again_on_same_connection(self):
        c = self.client()
        self.assertEqual(c.hello("again")["server"], c.info["server"])


class LiveClientIpc(LiveClient):
    TRANSPORT = "ipc"


if __name__ == "__main__":
    unittest.main()
