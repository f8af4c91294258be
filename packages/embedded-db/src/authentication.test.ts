import fs from 'fs';
import net from 'net';
import os from 'os';
import path from 'path';
import {
  EmbeddedPostgres,
  startEmbeddedPostgres,
} from './startEmbeddedPostgres';

// eslint-disable-next-line @typescript-eslint/no-var-requires
const { Client } = require('pg');

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

interface WireMessage {
  type: string;
  body: Buffer;
}

/**
 * Speaks the protocol by hand: a startup message, then `afterStartup` as soon as the server
 * answers. Resolves with everything the server sent once it closes the connection.
 */
function rawSession(
  port: number,
  database: string,
  afterStartup: Buffer,
): Promise<WireMessage[]> {
  const params = Buffer.from(`user\0postgres\0database\0${database}\0\0`);
  const startup = Buffer.alloc(8);
  startup.writeInt32BE(8 + params.length, 0);
  startup.writeInt32BE(196608, 4);
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(Buffer.concat([startup, params]));
    });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('the server did not close the connection'));
    }, 10_000);
    socket.once('data', () => socket.write(afterStartup));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const messages: WireMessage[] = [];
      for (
        let i = 0;
        i + 5 <= received.length;
        i += 1 + received.readInt32BE(i + 1)
      ) {
        const end = i + 1 + received.readInt32BE(i + 1);
        const type = String.fromCharCode(received[i]);
        messages.push({ type, body: received.subarray(i + 5, end) });
      }
      resolve(messages);
    });
  });
}

/** A simple-protocol Query message. */
function queryMessage(sql: string): Buffer {
  const text = Buffer.from(`${sql}\0`);
  const header = Buffer.alloc(5);
  header.write('Q', 0);
  header.writeInt32BE(4 + text.length, 1);
  return Buffer.concat([header, text]);
}

/** The SQLSTATE of an ErrorResponse body. */
function sqlState(body: Buffer): string | undefined {
  const field = body
    .toString('utf8')
    .split('\0')
    .find(f => f.startsWith('C'));
  return field?.slice(1);
}

/** Local addresses listening on `port`, from the kernel's socket tables (Linux). */
function listeningAddresses(port: number): string[] {
  const found: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!fs.existsSync(file)) continue;
    for (const line of fs.readFileSync(file, 'utf8').split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (state !== '0A' || !local) continue; // 0A = LISTEN
      const [hex, portHex] = local.split(':');
      if (parseInt(portHex, 16) !== port) continue;
      // IPv4 is one little-endian word; IPv6 four of them, shown here as raw hex.
      found.push(
        hex.length === 8
          ? Buffer.from(hex, 'hex').reverse().join('.')
          : hex
              .match(/.{8}/g)!
              .map(w => Buffer.from(w, 'hex').reverse().toString('hex'))
              .join(''),
      );
    }
  }
  return found;
}

describe('embedded server authentication', () => {
  let pg: EmbeddedPostgres;

  beforeAll(async () => {
    pg = await startEmbeddedPostgres();
  });
  afterAll(async () => {
    await pg?.stop();
  });

  it('accepts the password it handed out, a fresh random one', async () => {
    expect(pg.connection.password).toMatch(/^[\w-]{32}$/);
    expect(pg.connection.password).not.toBe('postgres');
    expect(await query(pg.connection)).toEqual([{ one: 1 }]);
    expect(await query({ connectionString: pg.connectionString })).toEqual([
      { one: 1 },
    ]);
  });

  it('refuses a wrong password, an unknown user and the old fixed one with 28P01', async () => {
    for (const wrong of [
      { password: 'wrong' },
      { password: 'postgres' },
      { password: `${pg.connection.password}x` },
      { user: 'admin' }, // right password, but not the one role
    ]) {
      await expect(query({ ...pg.connection, ...wrong })).rejects.toMatchObject(
        {
          code: '28P01',
          message: expect.stringMatching(/password authentication failed/),
        },
      );
    }
  });

  it('refuses a client without a password, and runs nothing it sends', async () => {
    // pg gives up by itself once the server asks for SCRAM: it cannot answer without a password.
    await expect(
      query({ ...pg.connection, password: undefined }),
    ).rejects.toThrow(/password/);

    // A client that skips authentication and sends a query gets 28000 and a closed connection.
    const sneaky = queryMessage('CREATE TABLE sneaky (v int)');
    const messages = await rawSession(pg.port, 'postgres', sneaky);
    expect(messages.map(m => m.type)).toEqual(['R', 'E']);
    // AuthenticationSASL (10), not AuthenticationOk (0)
    expect(messages[0].body.readInt32BE(0)).toBe(10);
    expect(messages[0].body.subarray(4).toString()).toContain('SCRAM-SHA-256');
    expect(sqlState(messages[1].body)).toBe('28000');
    expect(
      await query(pg.connection, `SELECT to_regclass('sneaky') AS t`),
    ).toEqual([{ t: null }]);
  });

  it('refuses database names that would leave the data directory', async () => {
    for (const database of ['..', '.', '.password']) {
      await expect(query({ ...pg.connection, database })).rejects.toThrow(
        /invalid database name/,
      );
    }
  });

  it('listens on 127.0.0.1 only, not on every interface', () => {
    expect(pg.host).toBe('127.0.0.1');
    expect(listeningAddresses(pg.port)).toEqual(['127.0.0.1']);
  });
});

describe('embedded server password of a data directory', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-db-auth-'));
  });
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is generated once, kept in a 0600 file, and reused on restart', async () => {
    const first = await startEmbeddedPostgres({ dataDir, preload: [] });
    let password: string;
    try {
      password = first.connection.password;
      const file = path.join(dataDir, '.password');
      expect(first.passwordFile).toBe(file);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.readFileSync(file, 'utf8').trim()).toBe(password);

      // An unauthenticated client makes the server open (and create) nothing.
      await expect(
        query({
          ...first.connection,
          password: 'wrong',
          database: 'never_opened',
        }),
      ).rejects.toMatchObject({ code: '28P01' });
      expect(fs.existsSync(path.join(dataDir, 'never_opened'))).toBe(false);
      await query({ ...first.connection, database: 'opened' });
      expect(fs.existsSync(path.join(dataDir, 'opened'))).toBe(true);
    } finally {
      await first.stop();
    }

    const second = await startEmbeddedPostgres({ dataDir, preload: [] });
    try {
      expect(second.connection.password).toBe(password);
      expect(await query({ ...second.connection, database: 'opened' })).toEqual(
        [{ one: 1 }],
      );
    } finally {
      await second.stop();
    }
  });
});

describe('embedded server address', () => {
  it('refuses to listen anywhere but loopback', async () => {
    for (const host of ['0.0.0.0', '::', '192.0.2.1']) {
      await expect(
        startEmbeddedPostgres({ host, preload: [] }),
      ).rejects.toThrow(
        new RegExp(
          `refusing to listen on "${host.replace(
            /\./g,
            '\\.',
          )}".*loopback only`,
        ),
      );
    }
  });
});
