// client.js — the env role of the parlor protocol (protocol/PROTOCOL.md
// §1-§11) for Node: one DEALER socket, requests matched to replies by id
// (so several may be in flight), Env for one game and VectorEnv for n games
// stepped as one batch. Blobs come back as typed arrays.
'use strict';
const crypto = require('crypto');
const zmq = require('zeromq');
const { encode, decode } = require('@msgpack/msgpack');
const { applyCurve } = require('./keys');

const VERSION = 1;
const DEFAULT_ENDPOINT = 'tcp://127.0.0.1:5555';

// An error reply (code, name and msg as the server sent them), or a
// failure on this side (name TIMEOUT, CLOSED, BAD_ARGUMENT).
class ParlorError extends Error {
  constructor(name, msg, code = 0) {
    super(`${name}: ${msg}`);
    this.name = 'ParlorError';
    this.code = code;
    this.errorName = name;
    this.detail = msg;
  }
}

// Copies a bin (a Uint8Array that may sit at any offset) into a typed array.
function typed(bin, Type) {
  const copy = new Uint8Array(bin.byteLength);
  copy.set(bin);
  return new Type(copy.buffer);
}

// The action ids set in row `row` of a legal-mask blob.
function legalIds(mask, maskBytes, row = 0) {
  const ids = [];
  for (let b = 0; b < maskBytes; b++) {
    const byte = mask[row * maskBytes + b];
    for (let k = 0; byte && k < 8; k++) if (byte & (1 << k)) ids.push(8 * b + k);
  }
  return ids;
}

class Client {
  // endpoint: where `parlor serve` listens. options: timeoutMs (per
  // request, default 30000), serverKey / clientKey for CURVE (the server's
  // NAME.key and this client's NAME.key_secret, from parlor keygen).
  constructor(endpoint = DEFAULT_ENDPOINT, { timeoutMs = 30000, serverKey, clientKey } = {}) {
    this.endpoint = endpoint;
    this.timeoutMs = timeoutMs;
    // Our own random routing id (not starting with a zero byte, which
    // ZeroMQ reserves), as the Python and C clients take: the server then
    // knows this client again after a reconnection (PROTOCOL.md §1).
    const routingId = 'js' + crypto.randomBytes(14).toString('hex');
    this.socket = new zmq.Dealer({ linger: 0, routingId });
    applyCurve(this.socket, serverKey, clientKey);
    this.socket.connect(endpoint);
    this.nextId = 1;
    this.pending = new Map();
    this.closed = false;
    this.reading = this._read();
  }

  async _read() {
    try {
      for await (const frames of this.socket) {
        const frame = frames[frames.length - 1];
        let reply;
        try {
          reply = decode(frame);
        } catch (e) {
          continue; // not msgpack: no request can be matched to it
        }
        const id = reply.id ?? this.pending.keys().next().value;
        const waiter = this.pending.get(id);
        if (!waiter) continue; // a reply to a request we gave up on
        this.pending.delete(id);
        clearTimeout(waiter.timer);
        if (reply.type === 'error') waiter.reject(new ParlorError(reply.name, reply.msg, reply.code));
        else waiter.resolve(reply);
      }
    } catch (e) {
      if (!this.closed) this._failAll(new ParlorError('IO', `socket failed: ${e.message}`));
    }
  }

  _failAll(err) {
    for (const w of this.pending.values()) {
      clearTimeout(w.timer);
      w.reject(err);
    }
    this.pending.clear();
  }

  // Sends one request and resolves to its reply map (rejects with a
  // ParlorError on an error reply, a timeout or after close()).
  request(type, fields = {}) {
    if (this.closed) return Promise.reject(new ParlorError('CLOSED', 'the client is closed'));
    const id = this.nextId++;
    const msg = encode({ v: VERSION, id, type, ...fields }, { useBigInt64: true, ignoreUndefined: true });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ParlorError('TIMEOUT', `no reply to ${type} from ${this.endpoint} within ` +
          `${this.timeoutMs} ms: is \`parlor serve --bind ${this.endpoint}\` running (and are the ` +
          'CURVE keys right, if it uses them)?'));
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.socket.send(msg).catch((e) => {
        this.pending.delete(id);
        clearTimeout(timer);
        reject(new ParlorError('IO', `cannot send: ${e.message}`));
      });
    });
  }

  hello() { return this.request('hello', { client: 'parlor-js' }); }
  describe(game) { return this.request('describe', { game }); }
  ping() { return this.request('ping'); }

  // Closes the socket; pending and later requests fail with CLOSED.
  close() {
    if (this.closed) return;
    this.closed = true;
    this._failAll(new ParlorError('CLOSED', 'the client was closed'));
    this.socket.close();
  }
}

function checkSeed(seed) {
  const ok = (typeof seed === 'number' && Number.isSafeInteger(seed) && seed >= 0) ||
    (typeof seed === 'bigint' && seed >= 0n && seed < 1n << 64n);
  if (!ok) throw new ParlorError('BAD_ARGUMENT', `seed must be a whole number from 0 to 2^64-1, got ${seed}`);
  return BigInt(seed);
}

function checkAction(a) {
  if (!Number.isInteger(a)) throw new ParlorError('BAD_ARGUMENT', `an action is a whole number, got ${a}`);
  return a;
}

// Fields shared by make() of both env kinds.
function makeFields(game, { opponents, seat, maxSteps } = {}) {
  return { game, opponents, seat, max_steps: maxSteps };
}

// One game on the server (a plain env).
class Env {
  constructor(client, info) {
    this.client = client;
    this.info = info;
    this.id = BigInt(info.env); // msgpack writes a Number above 2^32 as a float
  }

  // Creates a plain env. options: opponents ("random", or one spec per other
  // seat), seat (the learner's, default 0), maxSteps.
  static async make(client, game, options = {}) {
    return new Env(client, await client.request('make', makeFields(game, options)));
  }

  _timestep(r) {
    const info = this.info;
    return {
      toMove: r.to_move,
      seat: r.seat,
      steps: r.steps,
      terminated: r.terminated,
      truncated: r.truncated,
      obs: typed(r.obs, Float32Array),
      mask: r.legal,
      legal: legalIds(r.legal, info.mask_bytes, 0),
      reward: typed(r.reward, Float64Array),
      returns: typed(r.returns, Float64Array),
      view: r.view,
      legalNames: r.legal_names,
    };
  }

  async reset(seed, { view = false, names = false } = {}) {
    return this._timestep(await this.client.request('reset',
      { env: this.id, seed: checkSeed(seed), view, names }));
  }

  // action: one id; or, in a simultaneous game, an array of one per seat.
  async step(action, { view = false, names = false } = {}) {
    const fields = Array.isArray(action) ? { actions: action.map(checkAction) } : { action: checkAction(action) };
    return this._timestep(await this.client.request('step', { env: this.id, ...fields, view, names }));
  }

  close() { return this.client.request('close', { env: this.id }); }
}

// n games of one configuration, stepped as one batch with auto-reset.
class VectorEnv {
  constructor(client, info) {
    this.client = client;
    this.info = info;
    this.id = BigInt(info.env);
    this.n = info.n;
  }

  static async make(client, game, n, options = {}) {
    return new VectorEnv(client, await client.request('make', { ...makeFields(game, options), n }));
  }

  _batch(r) {
    return {
      n: r.n,
      obs: typed(r.obs, Float32Array),
      mask: r.legal,
      reward: typed(r.reward, Float64Array),
      terminated: r.terminated,
      truncated: r.truncated,
      seat: typed(r.seat, Int32Array),
      toMove: typed(r.to_move, Uint32Array),
      steps: typed(r.steps, Int32Array),
      finalObs: typed(r.final_obs, Float32Array),
      finalSeat: typed(r.final_seat, Int32Array),
      // The legal action ids of env i (its first row).
      legal: (i) => legalIds(r.legal, this.info.mask_bytes, i * this.info.rows),
    };
  }

  async reset(seed) {
    return this._batch(await this.client.request('reset', { env: this.id, seed: checkSeed(seed) }));
  }

  // actions: n ids (n * players when rows = players), sent as one int32 blob.
  async step(actions) {
    const a = Int32Array.from(actions, checkAction);
    const bin = new Uint8Array(a.buffer);
    return this._batch(await this.client.request('step', { env: this.id, actions: bin }));
  }

  close() { return this.client.request('close', { env: this.id }); }
}

module.exports = { Client, Env, VectorEnv, ParlorError, legalIds, DEFAULT_ENDPOINT, VERSION };
