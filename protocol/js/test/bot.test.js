// bot.test.js — the JavaScript bot in real tournaments: spawned as a cmd:
// bot, and connecting by itself to an --arena as bot:NAME. Every game it
// plays must end normally (no forfeit), and it must hear every result.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const { runBot } = require('../lib');
const { tempDir, runParlor, journal } = require('./helpers');

const BOT = path.resolve(__dirname, '../examples/bot.js');
// Generous per-move time: only a hang should time out (the machine may be
// loaded), never a slow start.
const MOVE = '60';

test('a spawned cmd: bot plays its games without a forfeit', async () => {
  const dir = tempDir();
  const r = await runParlor(['tournament', '--game', 'thirty_one(players=2)', '--agents',
    `random,js=cmd:${process.execPath} ${BOT}`, '--deals', '2', '--jobs', '1',
    '--move-time', MOVE, '--out', dir, '--quiet']);
  assert.strictEqual(r.code, 0, r.stderr);
  const games = journal(dir);
  assert.strictEqual(games.length, 4);
  for (const g of games) assert.strictEqual(g.end, 'normal', JSON.stringify(g));
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a bot:NAME bot connects to the arena and hears every result', async () => {
  const dir = tempDir();
  const endpoint = `ipc://${dir}/arena`;
  const results = [];
  const bot = runBot({ endpoint, name: 'jsfirst', choose: (act) => act.legal[act.legal.length - 1],
    onResult: (m) => results.push(m) });
  const r = await runParlor(['tournament', '--game', 'thirty_one(players=2)', '--agents',
    'random,bot:jsfirst', '--arena', endpoint, '--bot-wait', '120', '--deals', '3', '--jobs', '1',
    '--move-time', MOVE, '--out', `${dir}/out`, '--quiet']);
  assert.strictEqual(r.code, 0, r.stderr);
  const { played } = await bot; // resolves at bye
  const games = journal(`${dir}/out`);
  assert.strictEqual(games.length, 6);
  for (const g of games) assert.strictEqual(g.end, 'normal', JSON.stringify(g));
  assert.strictEqual(played, 6);
  for (const m of results) assert.deepStrictEqual(m.forfeit, []);
  fs.rmSync(dir, { recursive: true, force: true });
});
