#!/usr/bin/env node
// Serves PGlite (Postgres in WASM) with pgvector over the Postgres wire protocol, one PGlite
// instance per database name (see wireServer.mjs). Runs as its own process: PGlite's WASM loader
// needs a real ESM context (not a jest VM), and a separate process can be stopped and restarted
// like a real database server.
//
// Usage: node server.mjs [--port 5433] [--host 127.0.0.1] [--data-dir DIR] [--max-connections 64]
//                       [--preload db1,db2]
// Prints one JSON line {"ready":true,"host":...,"port":...} on stdout when accepting connections.
import { startWireServer } from './wireServer.mjs';

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const server = await startWireServer({
  host: arg('host', '127.0.0.1'),
  port: Number(arg('port', '0')),
  dataDir: arg('data-dir', undefined),
  maxConnections: Number(arg('max-connections', '64')),
  preload: (arg('preload', '') ?? '').split(',').filter(Boolean),
});
process.stdout.write(`${JSON.stringify({ ready: true, host: server.host, port: server.port })}\n`);

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  try {
    await server.stop();
  } finally {
    process.exit(0);
  }
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
// Exit with the parent when it was started with a pipe (tests): a runner that dies must not
// leave a database behind.
if (process.argv.includes('--exit-with-parent')) {
  process.stdin.on('end', shutdown);
  process.stdin.resume();
}
