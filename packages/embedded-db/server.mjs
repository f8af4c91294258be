#!/usr/bin/env node
// Serves PGlite (Postgres in WASM) with pgvector over the Postgres wire protocol.
// Runs as its own process: PGlite's WASM loader needs a real ESM context (not a jest VM),
// and a separate process can be stopped and restarted like a real database server.
//
// Usage: node server.mjs [--port 5433] [--host 127.0.0.1] [--data-dir DIR] [--max-connections 10]
// Prints one JSON line {"ready":true,"host":...,"port":...} on stdout when accepting connections.
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import fs from 'node:fs';

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const host = arg('host', '127.0.0.1');
const port = Number(arg('port', '0'));
const dataDir = arg('data-dir', undefined);
const maxConnections = Number(arg('max-connections', '10'));

if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
const db = await PGlite.create({ dataDir, extensions: { vector } });
await db.exec('CREATE EXTENSION IF NOT EXISTS vector');

const server = new PGLiteSocketServer({ db, host, port, maxConnections });
await server.start();
const address = server.server?.address?.();
const actualPort = typeof address === 'object' && address ? address.port : port;
process.stdout.write(`${JSON.stringify({ ready: true, host, port: actualPort, dataDir: dataDir ?? null })}\n`);

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  try {
    await server.stop();
    await db.close();
  } finally {
    process.exit(0);
  }
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
// Exit with the parent: a test runner that dies must not leave a database behind.
process.stdin.on('end', shutdown);
process.stdin.resume();
