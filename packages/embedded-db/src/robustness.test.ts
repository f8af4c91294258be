import { spawnSync } from 'child_process';
import fs from 'fs';
import net from 'net';
import os from 'os';
import path from 'path';
import {
  EmbeddedPostgres,
  EmbeddedPostgresOptions,
  startEmbeddedPostgres,
} from './startEmbeddedPostgres';

// eslint-disable-next-line @typescript-eslint/no-var-requires
const { Client } = require('pg');

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/** Rejects when `promise` has not settled in `ms` (a blocked server never answers). */
function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Connects with pg, runs one query and disconnects; rejects with pg's error (code = SQLSTATE). */
async function query(connection: object, sql = 'SELECT 1 AS one') {
  const client = new Client(connection);
  client.on('error', () => {}); // a refused connection also emits; the rejection is what counts
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/** query, tried again while the server is at its connection limit (53300), for up to 5 s. */
async function queryOnceFree(connection: object) {
  for (const deadline = Date.now() + 5000; ; await sleep(100)) {
    try {
      return await query(connection);
    } catch (e: any) {
      if (e.code !== '53300' || Date.now() > deadline) throw e;
    }
  }
}

/** A raw client that never closes its side of the connection; resolves once the server has. */
function stubbornSocket(port: number, send?: Buffer): Promise<void> {
  const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  socket.on('error', () => {});
  if (send) socket.write(send);
  socket.resume();
  return new Promise(resolve => socket.once('end', () => resolve()));
}

/** Every test its own server: one that a test breaks must not fail the next. */
function useServer(options: EmbeddedPostgresOptions = {}) {
  let server: EmbeddedPostgres | undefined;
  beforeEach(async () => {
    server = await startEmbeddedPostgres(options);
  });
  afterEach(async () => {
    await server?.stop();
  });
  return () => server!;
}

describe('embedded server connection limits', () => {
  const pg = useServer({ maxConnections: 1, authTimeoutMs: 500 });

  it('frees the slot of a refused client that keeps its side open', async () => {
    const header = Buffer.alloc(4);
    header.writeInt32BE(20000, 0); // over the startup packet limit: refused at once
    await within(5000, stubbornSocket(pg().port, header), 'refusal');
    expect(await queryOnceFree(pg().connection)).toEqual([{ one: 1 }]);
  });

  it('frees the slot of a client that never authenticates', async () => {
    await within(5000, stubbornSocket(pg().port), 'authentication timeout');
    expect(await queryOnceFree(pg().connection)).toEqual([{ one: 1 }]);
  });

  it('survives clients that reset their connection at the limit', async () => {
    const holder = new Client(pg().connection);
    holder.on('error', () => {}); // the server dying is what the query below reports
    await holder.connect();
    try {
      for (let i = 0; i < 10; i++) {
        const socket = net.connect(pg().port, '127.0.0.1');
        socket.on('error', () => {});
        await new Promise(r => socket.once('connect', r));
        socket.resetAndDestroy();
      }
      await sleep(500);
      const reply = holder.query('SELECT 1 AS one') as Promise<{ rows: {}[] }>;
      const { rows } = await within(5000, reply, 'SELECT 1');
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await holder.end().catch(() => {});
    }
  });
});

describe('embedded server robustness', () => {
  const pg = useServer();

  it.each([
    ['huge', [0x51, 0xff, 0xff, 0xff, 0xff]],
    ['too short', [0x51, 0, 0, 0, 2]],
  ])('closes a connection with a %s message length', async (_, bytes) => {
    const client = new Client(pg().connection);
    const failed = new Promise(resolve => client.on('error', resolve));
    await client.connect();
    (client as any).connection.stream.write(Buffer.from(bytes));
    expect(await within(5000, failed, 'the 08P01 error')).toMatchObject({
      code: '08P01',
    });
    expect(await within(10_000, query(pg().connection), 'SELECT 1')).toEqual([
      { one: 1 },
    ]);
  });

  it('resets the shared session once the last client of a database leaves', async () => {
    const connection = { ...pg().connection, database: 'session' };
    const first = new Client(connection);
    await first.connect();
    const [{ search_path: initial }] = (await first.query('SHOW search_path'))
      .rows;
    await first.query('SET search_path TO pg_catalog');
    await first.query('PREPARE leftover AS SELECT 1');
    await first.query('CREATE TEMP TABLE scratch (v int)');
    await first.end();

    const second = new Client(connection);
    await second.connect();
    try {
      const { rows } = await second.query(
        `SELECT current_setting('search_path') AS path,
           (SELECT count(*)::int FROM pg_prepared_statements) AS prepared,
           to_regclass('pg_temp.scratch') AS scratch`,
      );
      expect(rows).toEqual([{ path: initial, prepared: 0, scratch: null }]);
    } finally {
      await second.end();
    }
  });
});

describe('embedded server data directory', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-db-lock-'));
  });
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is refused to a second server while the first one runs', async () => {
    const first = await startEmbeddedPostgres({ dataDir });
    try {
      await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(
        `data directory ${dataDir} is in use by pid ${first.pid}`,
      );
      // A port in use is reported as such, and found before any database is opened.
      const elsewhere = fs.mkdtempSync(`${dataDir}-other-`);
      try {
        await expect(
          startEmbeddedPostgres({ dataDir: elsewhere, port: first.port }),
        ).rejects.toThrow(`port ${first.port} on 127.0.0.1 is in use`);
        expect(fs.readdirSync(elsewhere).sort()).toEqual(['.password']);
      } finally {
        fs.rmSync(elsewhere, { recursive: true, force: true });
      }
      expect(await query(first.connection)).toEqual([{ one: 1 }]);
    } finally {
      await first.stop();
    }
    expect(fs.existsSync(path.join(dataDir, '.lock'))).toBe(false);
  });

  it('is taken over from a server that died without giving it back', async () => {
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
    fs.writeFileSync(path.join(dataDir, '.lock'), String(deadPid));
    const server = await startEmbeddedPostgres({ dataDir });
    try {
      expect(await query(server.connection)).toEqual([{ one: 1 }]);
    } finally {
      await server.stop();
    }
  });

  it('reports a database that fails to open, and tries it again', async () => {
    const server = await startEmbeddedPostgres({ dataDir, preload: [] });
    const blocker = path.join(dataDir, 'blocked');
    fs.writeFileSync(blocker, 'a file where the database directory belongs');
    try {
      const connection = { ...server.connection, database: 'blocked' };
      await expect(query(connection)).rejects.toMatchObject({
        code: 'XX000',
        message: expect.stringContaining(blocker),
      });
      fs.rmSync(blocker);
      expect(await query(connection)).toEqual([{ one: 1 }]);
    } finally {
      await server.stop();
    }
  });
});
