#!/usr/bin/env node
// random_agent.js — plays Spoil-Five against random bots on a running
// `parlor serve` (default tcp://127.0.0.1:5555), choosing random legal moves.
'use strict';
const { Client, Env } = require('../lib');

async function main() {
  const client = new Client(process.argv[2]);
  const env = await Env.make(client, 'spoil_five', { opponents: 'random' });
  for (let episode = 0; episode < 5; episode++) {
    let ts = await env.reset(episode);
    let total = 0;
    while (!ts.terminated && !ts.truncated) {
      ts = await env.step(ts.legal[Math.floor(Math.random() * ts.legal.length)]);
      total += ts.reward[env.info.learner];
    }
    console.log(`game ${episode}: return ${total >= 0 ? '+' : ''}${total}`);
  }
  await env.close();
  client.close();
}

main().catch((e) => { console.error(e.message); process.exit(1); });
