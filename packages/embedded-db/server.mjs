#!/usr/bin/env node
// @ts-check
// Serves PGlite (Postgres in WASM) with pgvector over the Postgres wire protocol, one PGlite
// instance per database name (see wireServer.mjs). Runs as its own process: PGlite's WASM loader
// needs a real ESM context (not a jest VM), and a separate process can be stopped and restarted
// like a real database server.
//
// Development only: listens on loopback and nowhere else, and requires the password (user
// postgres) kept in DIR/.password (generated on first start; fresh per start without --data-dir).
//
// Usage: node server.mjs [--port 5433] [--host 127.0.0.1] [--data-dir DIR] [--max-connections 64]
//                       [--preload db1,db2] [--auth-timeout-ms 30000]
// Prints one JSON line {"ready":true,"host","port","user","password","passwordFile"} on stdout
// when accepting connections, and a line for the developer on stderr.
import { startWireServer } from './wireServer.mjs';

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

let server;
try {
  server = await startWireServer({
    host: arg('host', '127.0.0.1'),
    port: Number(arg('port', '0')),
    dataDir: arg('data-dir', undefined),
    maxConnections: Number(arg('max-connections', '64')),
    preload: (arg('preload', '') ?? '').split(',').filter(Boolean),
    authTimeoutMs: Number(arg('auth-timeout-ms', '30000')),
  });
} catch (e) {
  // Our own refusals (e.g. a non-loopback --host) need no stack trace.
  process.stderr.write(
    `${e.message.startsWith('embedded-db:') ? e.message : e.stack}\n`,
  );
  process.exit(2);
}
const { host, port, user, password, passwordFile } = server;
const ready = { ready: true, host, port, user, password, passwordFile };
process.stdout.write(`${JSON.stringify(ready)}\n`);
const urlHost = host.includes(':') ? `[${host}]` : host;
const url = `postgres://${user}:${password}@${urlHost}:${port}/postgres`;
process.stderr.write(
  `embedded-db: listening on ${host}:${port} (loopback only); user ${user}, password ${password}` +
    `${passwordFile ? ` (kept in ${passwordFile})` : ''}\n  psql ${url}\n`,
);

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
