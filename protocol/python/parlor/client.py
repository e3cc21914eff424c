"""Low-level client of the parlor env server (protocol/PROTOCOL.md).

A Client is one ZeroMQ DEALER connection, with a routing id of its own so
that its envs survive a reconnection. Every request is one msgpack map
carrying the header v (protocol version), id (a request id, counting up) and
type; the reply carries the same id. Every wait is bounded by the client's
timeout, so a dead or absent server raises ParlorTimeout instead of hanging;
a reply that arrives after its request timed out is recognised by its id and
dropped. An error reply raises ParlorError with the wire code, its name and
the server's sentence. The higher-level classes (Env, AECEnv, VectorEnv) are
built on the methods here; tests and tools may also call call() and
call_raw() to send anything at all.
"""

import os
import time

import zmq

from .wire import decode_reply, encode_request

PROTOCOL_VERSION = 1      # the highest protocol version this client speaks
PROTOCOL_VERSION_MIN = 1  # the lowest
DEFAULT_ENDPOINT = "tcp://127.0.0.1:5555"  # where `parlor serve` listens
DEFAULT_TIMEOUT = 60.0    # seconds a call waits for its reply
DEFAULT_CONNECT_TIMEOUT = 5.0  # seconds the first reply (hello) may take

# Wire error codes, as protocol/messages.def numbers them.
ERROR_CODES = {
    "MALFORMED": 1,
    "VERSION": 2,
    "UNKNOWN_TYPE": 3,
    "MISSING_FIELD": 4,
    "BAD_TYPE": 5,
    "BAD_VALUE": 6,
    "TOO_BIG": 7,
    "UNKNOWN_ENV": 8,
    "BAD_SPEC": 9,
    "ILLEGAL_ACTION": 10,
    "BAD_BATCH": 11,
    "STATE": 12,
    "LIMIT": 13,
    "AGENT": 14,
    "INTERNAL": 15,
}


class ParlorError(Exception):
    """A request failed: code is the wire error code (0 for failures found
    on this side), name its name ("ILLEGAL_ACTION"), message the sentence
    and reply the whole error reply (None when there was none)."""

    def __init__(self, code, name, message, reply=None):
        super().__init__(f"{name} ({code}): {message}")
        self.code = code
        self.name = name
        self.message = message
        self.reply = reply

    @classmethod
    def from_reply(cls, reply):
        """The exception an error reply stands for."""
        return cls(reply.get("code", 0), reply.get("name", "UNKNOWN"),
                   reply.get("msg", ""), reply)


class ParlorTimeout(ParlorError):
    """No reply came within the client's timeout."""

    def __init__(self, message):
        super().__init__(0, "TIMEOUT", message)


class ParlorClosed(ParlorError):
    """The client or env was used after close()."""

    def __init__(self, message):
        super().__init__(0, "CLOSED", message)


def endpoint_or_default(endpoint):
    """endpoint itself, or when None $PARLOR_ENDPOINT, else
    DEFAULT_ENDPOINT: where `parlor serve` is looked for."""
    if endpoint is not None:
        return endpoint
    return os.environ.get("PARLOR_ENDPOINT") or DEFAULT_ENDPOINT


def _load_key(key):
    """(public, secret) of a key file, or (key, None) for Z85 text."""
    import zmq.auth
    if isinstance(key, bytes):
        key = key.decode()
    if len(key) == 40 and not os.path.exists(key):
        return key.encode(), None
    return zmq.auth.load_certificate(key)


def _use_curve(sock, server_key, client_key):
    """Makes sock a CURVE client of the server with public key server_key,
    with the key pair of client_key (a .key_secret file) or a fresh one."""
    if client_key is None:
        public, secret = zmq.curve_keypair()
    else:
        public, secret = _load_key(client_key)
        if secret is None:
            raise ValueError(f"{client_key} holds no secret key: give the "
                             ".key_secret file")
    sock.curve_serverkey = _load_key(server_key)[0]
    sock.curve_publickey = public
    sock.curve_secretkey = secret


class Client:
    """One connection to a parlor env server.

    Client(endpoint, timeout=60.0, name="parlor-python") connects and says
    hello, negotiating the protocol version; the hello reply is kept in
    info (server, versions, games, max_msg, max_envs, idle_timeout). The
    hello waits connect_timeout seconds at most (5 by default), so a
    missing server is reported at once, naming the endpoint and `parlor
    serve`; endpoint None means $PARLOR_ENDPOINT or DEFAULT_ENDPOINT. With
    hello=False nothing is sent until the first call. For a server run
    with --curve-secret, server_key is its public key (a .key file written
    by `parlor keygen`, or the Z85 text) and client_key this client's
    .key_secret file (None: a fresh key pair, for a server without
    --allow). Not thread-safe: one
    thread per client. close() (or a with block) closes the socket; envs
    left open are reclaimed by the server after its idle timeout. A call
    after close() raises ParlorClosed.
    """

    def __init__(self, endpoint=None, *, timeout=DEFAULT_TIMEOUT,
                 name="parlor-python", context=None, hello=True,
                 connect_timeout=DEFAULT_CONNECT_TIMEOUT, server_key=None,
                 client_key=None):
        self.endpoint = endpoint_or_default(endpoint)
        self.version = PROTOCOL_VERSION
        self.info = {}
        self._id = 0
        self._sock = self._open_socket(context)
        try:
            self.set_timeout(timeout)
            if server_key is not None:
                _use_curve(self._sock, server_key, client_key)
            self._sock.connect(self.endpoint)
            if hello:
                self._first_hello(name, connect_timeout)
        except zmq.ZMQError as e:
            self._sock.close()
            raise ParlorError(0, "ENDPOINT", f"cannot connect to "
                              f"{self.endpoint!r}: {e} (endpoints look like "
                              f"tcp://HOST:PORT or ipc://PATH)") from None
        except BaseException:
            self._sock.close()
            raise

    def _open_socket(self, context):
        """The DEALER socket of this client, not yet connected: every
        socket option is set here."""
        ctx = context if context is not None else zmq.Context.instance()
        sock = ctx.socket(zmq.DEALER)
        sock.setsockopt(zmq.LINGER, 0)
        # Our own routing id (not starting with a zero byte, which ZeroMQ
        # reserves), so that after a reconnection the server still knows
        # this client and its envs (PROTOCOL.md §1).
        sock.setsockopt(zmq.ROUTING_ID, b"py" + os.urandom(14))
        return sock

    def _first_hello(self, name, connect_timeout):
        """Says hello waiting connect_timeout at most (None: the call
        timeout), turning silence into an error that says what to do."""
        saved = self.timeout
        if connect_timeout is not None:
            self.set_timeout(connect_timeout if saved is None
                             else min(saved, connect_timeout))
        try:
            self.hello(name)
        except ParlorTimeout:
            raise ParlorTimeout(
                f"no parlor server answered at {self.endpoint} within "
                f"{self.timeout:g} s: start one with `parlor serve --bind "
                f"{self.endpoint}`, or pass the endpoint it listens on "
                f"(endpoint=... or $PARLOR_ENDPOINT)") from None
        finally:
            self.set_timeout(saved)

    # ---- connection ---------------------------------------------------

    def set_timeout(self, seconds):
        """Sets how long calls wait for their reply (None: for ever)."""
        self.timeout = seconds
        ms = -1 if seconds is None else max(1, int(seconds * 1000))
        self._sock.setsockopt(zmq.RCVTIMEO, ms)
        self._sock.setsockopt(zmq.SNDTIMEO, ms)

    def close(self):
        """Closes the connection (idempotent)."""
        if not self._sock.closed:
            self._sock.close()

    @property
    def closed(self):
        return self._sock.closed

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- requests -----------------------------------------------------

    def call(self, type_, **fields):
        """Sends request type_ with fields and returns the reply (a dict
        whose bin fields are bytes). Raises ParlorError on an error reply,
        ParlorTimeout when none comes in time."""
        return self._call(type_, fields)

    def _call(self, type_, fields, zero_copy=False):
        return self.receive(self._send(type_, fields), zero_copy)

    def _send(self, type_, fields):
        """Sends request type_ with fields; returns its id."""
        self._id += 1
        self._put(encode_request(self.version, self._id, type_, fields))
        return self._id

    def receive(self, request_id, zero_copy=False):
        """Waits for the reply to the request sent as request_id (by
        send_reset or send_step) and returns it, raising as call() does.
        With send_*, a caller can have requests in flight on several
        clients at once: one per client."""
        return self._await(request_id, zero_copy)

    def call_raw(self, data):
        """Sends data (any bytes) as one request and returns the next reply,
        whatever its id, raising ParlorError if it is an error reply. For
        tests and tools that need to send what call() would not."""
        return self._roundtrip(bytes(data), None)

    def exchange(self, data):
        """Sends data as one request and returns the next reply's bytes,
        neither decoded nor checked (for tools that measure the wire)."""
        self._sock.send(data)
        return self._recv(None)

    def _roundtrip(self, data, want_id, zero_copy=False):
        self._put(data)
        return self._await(want_id, zero_copy)

    def _put(self, data):
        if self._sock.closed:
            raise ParlorClosed(f"this client is closed: its connection to "
                               f"{self.endpoint} was ended by close()")
        try:
            self._sock.send(data)
        except zmq.Again:
            raise ParlorTimeout(f"could not send to {self.endpoint} within "
                                f"{self.timeout} s") from None

    def _await(self, want_id, zero_copy=False):
        start, deadline = time.monotonic(), None
        while True:
            try:
                reply = decode_reply(self._recv(deadline, zero_copy))
            except ValueError as e:  # msgpack's errors derive from it
                raise ParlorError(0, "MALFORMED",
                                  f"unreadable reply: {e}") from None
            rid = reply.get("id")
            # An error reply without an id answers a request whose id the
            # server could not read: with one request in flight, ours.
            if want_id is None or rid == want_id or (
                    rid is None and reply.get("type") == "error"):
                break
            # A late reply to a call that timed out: drop it, and wait for
            # ours no longer than one timeout from the send.
            if deadline is None and self.timeout is not None:
                deadline = start + self.timeout
        if reply.get("type") == "error":
            raise ParlorError.from_reply(reply)
        return reply

    def _recv(self, deadline, zero_copy=False):
        """The next reply's bytes, or with zero_copy a view of ZeroMQ's own
        buffer (a large reply is then not copied once more before it is
        decoded; for small ones the copy is cheaper than the view)."""
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0 or not self._sock.poll(int(left * 1000) + 1):
                raise self._timed_out()
        try:
            if zero_copy:
                return self._sock.recv(copy=False).buffer
            return self._sock.recv()
        except zmq.Again:
            raise self._timed_out() from None

    def _timed_out(self):
        return ParlorTimeout(f"no reply from {self.endpoint} within "
                             f"{self.timeout} s")

    # ---- the catalogue ------------------------------------------------

    def hello(self, name="parlor-python"):
        """Says hello offering PROTOCOL_VERSION; the reply's v is the
        version the server will speak with this client (PROTOCOL.md §4),
        used from then on if this client speaks it. Returns the reply (also
        kept in info)."""
        self.version = PROTOCOL_VERSION
        reply = self.call("hello", client=name)
        version = reply.get("v")
        if not (isinstance(version, int) and
                PROTOCOL_VERSION_MIN <= version <= PROTOCOL_VERSION):
            low, high = reply.get("versions", ("?", "?"))
            raise ParlorError(
                ERROR_CODES["VERSION"], "VERSION",
                f"the server speaks protocol versions {low} to {high} and "
                f"offers {version}; this client speaks "
                f"{PROTOCOL_VERSION_MIN} to {PROTOCOL_VERSION}", reply)
        self.version = version
        self.info = reply
        return reply

    def ping(self):
        """Keeps this client's envs from being reclaimed."""
        return self.call("ping")

    def describe(self, game):
        """Describes the game spec: options, sizes, observation layout."""
        return self.call("describe", game=game)

    def make(self, game, *, n=None, opponents=None, seat=None,
             max_steps=None):
        """Makes an env (n=None) or a vector env of n envs; opponents makes
        it single-agent with the learner in seat. Returns the make reply
        (env id, sizes, rows, rewards, learner, opponents)."""
        fields = {"game": game}
        for key, value in (("n", n), ("opponents", opponents),
                           ("seat", seat), ("max_steps", max_steps)):
            if value is not None:
                fields[key] = value
        return self._call("make", fields)

    def reset(self, env, seed, *, view=False, names=False, zero_copy=False):
        """Starts new episodes of env from seed; returns the timestep or
        batch reply. zero_copy decodes the reply straight from ZeroMQ's
        buffer, which pays off for replies of about 100 KB and more."""
        return self.receive(self.send_reset(env, seed, view=view,
                                            names=names), zero_copy)

    def send_reset(self, env, seed, *, view=False, names=False):
        """Sends reset's request without waiting; returns the id that
        receive() takes."""
        fields = {"env": env, "seed": seed}
        if view or names:
            fields["view"] = view
            fields["names"] = names
        return self._send("reset", fields)

    def step(self, env, action=None, *, actions=None, view=False,
             names=False, zero_copy=False):
        """Steps env with action (one seat) or actions (a joint step, or a
        vector env's batch: a list, or bytes of int32 little-endian);
        zero_copy as for reset."""
        return self.receive(self.send_step(env, action, actions=actions,
                                           view=view, names=names),
                            zero_copy)

    def send_step(self, env, action=None, *, actions=None, view=False,
                  names=False):
        """Sends step's request without waiting; returns the id that
        receive() takes."""
        fields = {"env": env}
        if action is not None:
            fields["action"] = action
        if actions is not None:
            fields["actions"] = actions
        if view or names:
            fields["view"] = view
            fields["names"] = names
        return self._send("step", fields)

    def close_env(self, env):
        """Closes env on the server."""
        return self.call("close", env=env)
