import { spawn, spawnSync } from 'child_process';
import fs from 'fs';
import net from 'net';
import os from 'os';
import path from 'path';
import readline from 'readline';
import { pathToFileURL } from 'url';
import {
  EmbeddedPostgres,
  EmbeddedPostgresOptions,
  startEmbeddedPostgres,
} from './startEmbeddedPostgres';

// eslint-disable-next-line @typescript-eslint/no-var-requires
const { Client } = require('pg');

const packageDir = path.resolve(__dirname, '..');
const wireServerUrl = pathToFileURL(
  path.join(packageDir, 'wireServer.mjs'),
).href;

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

/**
 * startWireServer in a node process that first runs `patch` (module code with PGlite in scope),
 * to bend the server's timing; cwd is this package, so PGlite is the module wireServer.mjs uses.
 */
async function startPatchedServer(patch: string) {
  const script = `
    import { PGlite } from '@electric-sql/pglite';
    ${patch}
    const { startWireServer } = await import(${JSON.stringify(wireServerUrl)});
    const server = await startWireServer({ preload: ['postgres'] });
    const { host, port, user, password } = server;
    console.log(JSON.stringify({ host, port, user, password, database: 'postgres' }));
    process.stdin.on('end', () => server.stop().then(() => process.exit(0)));
    process.stdin.resume();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: packageDir,
  });
  let stderr = '';
  child.stderr.on('data', d => {
    stderr += d;
  });
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', code =>
      reject(new Error(`exited with ${code}: ${stderr}`)),
    );
  });
  return {
    connection: JSON.parse(line),
    stop: () =>
      new Promise<void>(resolve => {
        if (child.exitCode !== null) resolve();
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}

/**
 * Takes the lock of `dataDir` with lockDataDir in a node process whose first read of the lock
 * file is `onRead(read)` instead (module code with `read` (the real readFileSync), `file`, `fs`
 * and `take` (lockDataDir again, as another server) in scope). Returns the pid and each take's
 * outcome, 'ok' or the error message.
 */
function lockWith(dataDir: string, onRead: string) {
  const script = `
    import fs from 'node:fs';
    import { lockDataDir } from ${JSON.stringify(wireServerUrl)};
    const file = ${JSON.stringify(path.join(dataDir, '.lock'))};
    const outcomes = [];
    const take = () => {
      try {
        lockDataDir(${JSON.stringify(dataDir)});
        outcomes.push('ok');
      } catch (e) {
        outcomes.push(e.message);
      }
    };
    const read = fs.readFileSync;
    let first = true;
    fs.readFileSync = (...args) => {
      if (!first || args[0] !== file) return read(...args);
      first = false;
      return (${onRead})(read);
    };
    take();
    console.log(JSON.stringify({ pid: process.pid, outcomes }));`;
  const { stdout, stderr, status } = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', script],
    { cwd: packageDir, encoding: 'utf8' },
  );
  if (status !== 0) throw new Error(`lock script failed: ${stderr}`);
  return JSON.parse(stdout) as { pid: number; outcomes: string[] };
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
    ['huge', [0x51, 0x7f, 0xff, 0xff, 0xff]], // 0x7fffffff; 0xff… would read as -1
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

describe('embedded server session reset', () => {
  it('happens before a client that arrives while the last one is released', async () => {
    // A slow ROLLBACK widens the window in which the next client attaches.
    const server = await startPatchedServer(`
      const { exec } = PGlite.prototype;
      PGlite.prototype.exec = async function (sql, ...rest) {
        if (sql === 'ROLLBACK') await new Promise(r => setTimeout(r, 1000));
        return exec.call(this, sql, ...rest);
      };`);
    try {
      const first = new Client(server.connection);
      first.on('error', () => {}); // the abrupt close below is the point of the test
      await first.connect();
      const [{ search_path: initial }] = (await first.query('SHOW search_path'))
        .rows;
      await first.query('SET search_path TO pg_catalog');
      await first.query('PREPARE leftover AS SELECT 1');
      await first.query('BEGIN');
      (first as any).connection.stream.destroy();

      const rows = await query(
        server.connection,
        `SELECT current_setting('search_path') AS path,
           (SELECT count(*)::int FROM pg_prepared_statements) AS prepared`,
      );
      expect(rows).toEqual([{ path: initial, prepared: 0 }]);
    } finally {
      await server.stop();
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

  it('is given to only one of two servers breaking a stale lock at once', () => {
    const lock = path.join(dataDir, '.lock');
    fs.writeFileSync(lock, String(spawnSync(process.execPath, ['-e', '']).pid));
    // The other server breaks the stale lock and takes the directory just after this one read it.
    const { pid, outcomes } = lockWith(
      dataDir,
      `read => { const held = read(file, 'utf8'); take(); return held; }`,
    );
    try {
      expect(outcomes).toEqual([
        'ok',
        expect.stringContaining(`in use by pid ${pid}`),
      ]);
      expect(fs.readFileSync(lock, 'utf8')).toMatch(new RegExp(`^${pid} \\w+`));
      expect(
        fs.readdirSync(dataDir).filter(f => f.startsWith('.lock')),
      ).toEqual(['.lock']);
    } finally {
      fs.rmSync(lock, { force: true });
    }
  });

  it('is taken when the lock is removed while being read', () => {
    // A live server's lock, given back between our creating ours failing and our reading it.
    fs.writeFileSync(path.join(dataDir, '.lock'), String(process.pid));
    const { outcomes } = lockWith(
      dataDir,
      `read => { fs.rmSync(file); return read(file, 'utf8'); }`,
    );
    fs.rmSync(path.join(dataDir, '.lock'), { force: true });
    expect(outcomes).toEqual(['ok']);
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
