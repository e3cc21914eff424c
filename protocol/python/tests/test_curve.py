"""CURVE: a server run with --curve-secret and --allow serves the clients
whose keys are allowed and nobody else (PROTOCOL.md, Security)."""

import os
import shutil
import subprocess
import tempfile
import unittest

import zmq

from helpers import CALL_TIMEOUT, Server, parlor_bin
from parlor.client import Client, ParlorTimeout


class Curve(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="parlor-curve-")
        os.mkdir(os.path.join(cls.dir, "allow"))
        for name in ("server", "alice", "mallory"):
            subprocess.run([parlor_bin(), "keygen",
                            os.path.join(cls.dir, name)], check=True,
                           stdout=subprocess.DEVNULL)
        shutil.copy(cls.key("alice.key"), os.path.join(cls.dir, "allow"))
        cls.server = Server("ipc", args=(
            "--curve-secret", cls.key("server.key_secret"),
            "--allow", os.path.join(cls.dir, "allow")))

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        shutil.rmtree(cls.dir, ignore_errors=True)

    @classmethod
    def key(cls, name):
        return os.path.join(cls.dir, name)

    def test_allowed_key_is_served(self):
        with Client(self.server.endpoint, timeout=CALL_TIMEOUT,
                    server_key=self.key("server.key"),
                    client_key=self.key("alice.key_secret")) as c:
            self.assertIn("dice", c.info["games"])

    def test_others_get_nothing(self):
        # Refused in the handshake: no reply ever comes, so a short wait
        # can only make this test pass on a broken server, never fail.
        for kw in ({"server_key": self.key("server.key"),
                    "client_key": self.key("mallory.key_secret")}, {}):
            with self.subTest(kw=sorted(kw)), \
                    self.assertRaises(ParlorTimeout):
                Client(self.server.endpoint, timeout=1.0, **kw)
        with Client(self.server.endpoint, timeout=CALL_TIMEOUT,
                    server_key=self.key("server.key"),
                    client_key=self.key("alice.key_secret")) as c:
            c.ping()


if __name__ == "__main__":
    unittest.main()
