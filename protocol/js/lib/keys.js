// keys.js — CURVE key files as `parlor keygen` writes them (NAME.key holds
// a public key, NAME.key_secret both keys; the certificate text format of
// pyzmq and CZMQ). Keys are 40-character Z85 strings, as zeromq.js takes.
'use strict';
const fs = require('fs');

const KEY_LEN = 40;

function findKey(text, name) {
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line.startsWith(name)) continue;
    const eq = line.indexOf('=');
    if (eq < 0) continue;
    const value = line.slice(eq + 1).trim().replace(/^["']|["']$/g, '');
    if (value.length === KEY_LEN) return value;
  }
  return null;
}

// Reads the public key (and, from a .key_secret file, the secret key) of a
// key file; throws an Error naming the file when a key is missing.
function loadKeys(path, { secret = false } = {}) {
  const text = fs.readFileSync(path, 'utf8');
  const publicKey = findKey(text, 'public-key');
  const secretKey = secret ? findKey(text, 'secret-key') : null;
  if (!publicKey || (secret && !secretKey)) {
    throw new Error(`${path}: no ${secret ? 'public-key and secret-key lines' : 'public-key line'}` +
      ` with ${KEY_LEN}-character Z85 keys (make one with parlor keygen)`);
  }
  return { publicKey, secretKey };
}

// Makes socket a CURVE client of the server whose public key file (or Z85
// key) is serverKey, with the key pair in the .key_secret file clientKey.
function applyCurve(socket, serverKey, clientKey) {
  if (!serverKey) return;
  if (!clientKey) throw new Error('a server key needs a client key pair too (clientKey: NAME.key_secret)');
  const server = serverKey.length === KEY_LEN && !fs.existsSync(serverKey)
    ? serverKey : loadKeys(serverKey).publicKey;
  const mine = loadKeys(clientKey, { secret: true });
  socket.curveServerKey = server;
  socket.curvePublicKey = mine.publicKey;
  socket.curveSecretKey = mine.secretKey;
}

module.exports = { loadKeys, applyCurve, KEY_LEN };
