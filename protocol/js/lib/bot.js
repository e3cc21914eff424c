// bot.js — the agent role of the parlor protocol (protocol/PROTOCOL.md §12):
// a bot connects a DEALER socket to a tournament, says hello, answers every
// act with an action and hears every result, until bye. One bot program
// serves both ways of seating it: spawned (cmd:, the endpoint and hello
// secret come in PARLOR_ENDPOINT and PARLOR_SECRET) or connecting by itself
// to an --arena (bot:NAME).
'use strict';
const zmq = require('zeromq');
const { encode, decode } = require('@msgpack/msgpack');
const { applyCurve } = require('./keys');

// Plays until the arena says bye. options: endpoint (default
// PARLOR_ENDPOINT), name, choose(act) -> action id (may be async), onResult
// (result), serverKey / clientKey for CURVE (default PARLOR_SERVER_KEY and
// PARLOR_KEY). Resolves to { played } at bye; rejects when the arena
// refuses the hello.
async function runBot({ endpoint = process.env.PARLOR_ENDPOINT, name = 'js-bot', choose,
  onResult = () => {}, serverKey = process.env.PARLOR_SERVER_KEY,
  clientKey = process.env.PARLOR_KEY } = {}) {
  if (!endpoint) throw new Error('no endpoint: give one, or run me as a cmd: bot (PARLOR_ENDPOINT)');
  if (typeof choose !== 'function') throw new Error('choose(act) must be a function');
  const sock = new zmq.Dealer({ linger: 0 });
  applyCurve(sock, serverKey, clientKey);
  sock.connect(endpoint);
  const send = (m) => sock.send(encode({ v: 1, ...m }));
  await send({ id: 0, type: 'hello', name, version: '1.0', secret: process.env.PARLOR_SECRET || '' });
  let played = 0;
  try {
    for await (const frames of sock) {
      const msg = decode(frames[frames.length - 1]);
      if (msg.type === 'act') {
        await send({ id: msg.id, type: 'action', action: await choose(msg) });
      } else if (msg.type === 'result') {
        played++;
        onResult(msg);
      } else if (msg.type === 'error') {
        throw new Error(`${name}: the arena refused us: ${msg.message || msg.msg}`);
      } else if (msg.type === 'bye') {
        break;
      }
    }
  } finally {
    sock.close();
  }
  return { played };
}

module.exports = { runBot };
