// helpers.js — what the tests share: the parlor binary, a private temporary
// directory, and a `parlor serve` on an ipc endpoint in it, started and
// awaited by its "listening on" line (no fixed port, no sleeping).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');

const BIN = process.env.PARLOR_BIN || path.resolve(__dirname, '../../../build/parlor');
const HANG_MS = 120000; // bounds a wait for something that must happen

function tempDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'parlor-js-'));
}

// Runs `parlor serve` with extra args on ipc://DIR/serve; resolves to
// { endpoint, stop() } once it prints where it listens.
function startServer(dir, args = []) {
  const proc = spawn(BIN, ['serve', '--bind', `ipc://${dir}/serve`, '--quiet', ...args],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('parlor serve did not start')), HANG_MS);
    proc.on('exit', (code) => reject(new Error(`parlor serve exited with ${code}`)));
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening on (\S+)/);
      if (!m) return;
      clearTimeout(timer);
      const exited = new Promise((r) => proc.on('exit', r));
      resolve({ endpoint: m[1], stop: () => { proc.kill('SIGTERM'); return exited; } });
    });
  });
}

// Runs the parlor binary to its exit; resolves to { code, stdout, stderr }.
function runParlor(args) {
  return new Promise((resolve) => {
    const proc = spawn(BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d) => { stdout += d; });
    proc.stderr.on('data', (d) => { stderr += d; });
    proc.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

// The records of a tournament journal.
function journal(dir) {
  return fs.readFileSync(path.join(dir, 'journal.jsonl'), 'utf8').trim().split('\n')
    .map((l) => JSON.parse(l)).filter((r) => r.type === 'game');
}

module.exports = { BIN, HANG_MS, tempDir, startServer, runParlor, journal };
