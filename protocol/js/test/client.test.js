// client.test.js — the JavaScript client against a live `parlor serve`:
// hello, single-agent and multi-agent episodes played to their end (with
// the rule that rewards sum to the final return), vector batches, error
// replies, closed clients, a server that does not answer, and key files.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const { Client, Env, VectorEnv, ParlorError, loadKeys, legalIds } = require('../lib');
const { tempDir, startServer, runParlor } = require('./helpers');

let dir;
let server;
let client;

test.before(async () => {
  dir = tempDir();
  server = await startServer(dir);
  client = new Client(server.endpoint, { timeoutMs: 120000 });
});

test.after(async () => {
  client.close();
  await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('hello names the server, its versions and games', async () => {
  const h = await client.hello();
  assert.deepStrictEqual(h.versions, [1, 1]);
  assert.ok(h.games.includes('spoil_five'));
  assert.ok(h.games.includes('thirty_one'));
});

test('a single-agent episode ends, and its rewards sum to the return', async () => {
  const env = await Env.make(client, 'thirty_one(players=2)', { opponents: 'random' });
  assert.strictEqual(env.info.learner, 0);
  let ts = await env.reset(7);
  let total = 0;
  let steps = 0;
  while (!ts.terminated && !ts.truncated) {
    assert.ok(ts.legal.length > 0);
    assert.strictEqual(ts.seat, 0);
    assert.strictEqual(ts.obs.length, env.info.obs_size);
    ts = await env.step(ts.legal[steps % ts.legal.length]);
    total += ts.reward[0];
    steps++;
  }
  assert.ok(ts.terminated);
  assert.strictEqual(ts.toMove, 0);
  assert.strictEqual(ts.legal.length, 0);
  assert.strictEqual(total, ts.returns[0]);
  await env.close();
});

test('the same seed and actions give the same episode', async () => {
  const env = await Env.make(client, 'spoil_five(players=3)');
  const play = async () => {
    let ts = await env.reset(42, { names: true });
    const seen = [];
    while (!ts.terminated) {
      seen.push(ts.legalNames.join(' '));
      ts = await env.step(ts.legal[0], { names: true });
    }
    return seen;
  };
  assert.deepStrictEqual(await play(), await play());
  await env.close();
});

test('errors come back as ParlorError with the server code name', async () => {
  await assert.rejects(Env.make(client, 'no_such_game'), (e) => e instanceof ParlorError && e.errorName === 'BAD_SPEC');
  const env = await Env.make(client, 'thirty_one(players=2)');
  const ts = await env.reset(1);
  const illegal = [...Array(env.info.num_actions).keys()].find((a) => !ts.legal.includes(a));
  await assert.rejects(env.step(illegal), (e) => e.errorName === 'ILLEGAL_ACTION');
  await assert.rejects(env.step(1.5), (e) => e.errorName === 'BAD_ARGUMENT');
  await assert.rejects(env.reset(-1), (e) => e.errorName === 'BAD_ARGUMENT');
  await env.close();
  await assert.rejects(env.step(ts.legal[0]), (e) => e.errorName === 'UNKNOWN_ENV');
});

test('a vector env steps n games as one batch, with auto-reset', async () => {
  const n = 8;
  const v = await VectorEnv.make(client, 'thirty_one(players=2)', n, { opponents: 'random' });
  const { obs_size: obsSize, mask_bytes: maskBytes } = v.info;
  let b = await v.reset(3n);
  let ended = 0;
  for (let t = 0; t < 200; t++) {
    assert.strictEqual(b.obs.length, n * obsSize);
    assert.strictEqual(b.mask.length, n * maskBytes);
    b = await v.step([...Array(n).keys()].map((i) => b.legal(i)[0]));
    const k = b.terminated.reduce((s, x) => s + x, 0) + b.truncated.reduce((s, x) => s + x, 0);
    assert.strictEqual(b.finalObs.length, k * obsSize);
    ended += k;
    for (let i = 0; i < n; i++) assert.ok(b.legal(i).length > 0); // auto-reset
  }
  assert.ok(ended > 0);
  await v.close();
});

test('legalIds reads the bitset rows', () => {
  const mask = Uint8Array.from([0b00000101, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0, 0, 0]);
  assert.deepStrictEqual(legalIds(mask, 8, 0), [0, 2]);
  assert.deepStrictEqual(legalIds(mask, 8, 1), [15]);
});

test('a closed client refuses requests', async () => {
  const c = new Client(server.endpoint);
  await c.ping();
  c.close();
  await assert.rejects(c.ping(), (e) => e.errorName === 'CLOSED');
});

test('with no server the client says so and names parlor serve', async () => {
  const c = new Client(`ipc://${dir}/nobody`, { timeoutMs: 300 });
  await assert.rejects(c.hello(), (e) => e.errorName === 'TIMEOUT' && /parlor serve/.test(e.message));
  c.close();
});

test('key files from parlor keygen load', async () => {
  const base = path.join(dir, 'alice');
  const r = await runParlor(['keygen', base]);
  assert.strictEqual(r.code, 0, r.stderr);
  const pair = loadKeys(`${base}.key_secret`, { secret: true });
  assert.strictEqual(pair.publicKey.length, 40);
  assert.strictEqual(pair.secretKey.length, 40);
  assert.strictEqual(loadKeys(`${base}.key`).publicKey, pair.publicKey);
  assert.throws(() => loadKeys(`${base}.key`, { secret: true }), /secret-key/);
});
