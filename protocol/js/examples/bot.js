#!/usr/bin/env node
// bot.js — a parlor bot in JavaScript: plays the first legal action.
//   spawned:    parlor tournament --agents 'random,js=cmd:node protocol/js/examples/bot.js'
//   connecting: node protocol/js/examples/bot.js tcp://HOST:5599 first
//               (the tournament runs with --arena tcp://0.0.0.0:5599 --agents 'random,bot:first')
// With CURVE: PARLOR_SERVER_KEY=arena.key PARLOR_KEY=first.key_secret.
'use strict';
const { runBot } = require('../lib');

const [endpoint, name] = process.argv.slice(2);
runBot({
  endpoint: endpoint || process.env.PARLOR_ENDPOINT,
  name: name || 'js-first-legal',
  choose: (act) => act.legal[0], // act: game, seat, table, view, obs, legal, deadline_ms
}).then(({ played }) => {
  process.stderr.write(`${name || 'js-first-legal'}: ${played} results, bye\n`);
}, (e) => {
  process.stderr.write(`${e.message}\n`);
  process.exit(1);
});
