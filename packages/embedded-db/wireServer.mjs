// @ts-check
// A Postgres wire-protocol front for PGlite instances, one instance per database name.
//
// Why not pglite-socket's server: it queues single protocol messages, so a Parse from one client
// can land between another client's Parse and Bind ("unnamed prepared statement does not exist"),
// and all clients share one session (a plugin's `SET search_path` changes every other plugin's).
// Here each client's messages run as whole units (up to Sync or a simple Query), a client in a
// transaction keeps the instance until it ends, and every database gets its own PGlite, so
// Backstage's one-database-per-plugin layout works unchanged.
//
// Clients authenticate first (SCRAM-SHA-256, see auth.mjs); until then nothing they send reaches
// PGlite, and no database is opened or created for them.
import net from 'node:net';
import path from 'node:path';
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import {
  AuthError,
  USER,
  assertLoopbackHost,
  isLoopbackAddress,
  passwordFor,
  saslRequest,
  scramExchange,
  scramVerifier,
} from './auth.mjs';

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const GSSENC_REQUEST = 80877104;
const PROTOCOL_3 = 196608;
/** Postgres' own limit for a startup packet; also bounds every message before authentication. */
const MAX_STARTUP_LENGTH = 10000;
/** A client that has not authenticated by then is dropped, so it cannot hold a connection slot. */
const AUTH_TIMEOUT_MS = 30_000;
/** Postgres' own limit for any message (PQ_LARGE_MESSAGE_LIMIT). */
const MAX_MESSAGE_LENGTH = 0x3fffffff;
/** How long a closed connection may take to flush its last message before it is destroyed. */
const CLOSE_GRACE_MS = 2_000;
/** Holds the server's pid; a second server on the same data directory is refused. */
const LOCK_FILE = '.lock';
/** Data directories locked by this process (a stale lock may carry our own, reused, pid). */
const lockedHere = new Set();

/** Messages after which the client waits for the server: the end of a unit of work. */
const UNIT_END = new Set(['S', 'Q', 'H', 'c', 'f']);

class Instance {
  constructor(name, db) {
    this.name = name;
    this.db = db;
    this.queue = [];
    this.busy = false;
    /** The client whose transaction is open; only it may run until the transaction ends. */
    this.owner = null;
    /** Connected clients; the shared session is reset when the last one leaves. */
    this.clients = 0;
  }

  /** A client authenticated: run its startup message (see submit). */
  attach(client, startup) {
    this.clients += 1;
    return this.submit(client, startup, true);
  }

  /** `startup` units may run inside another client's transaction: opening a pool connection
   * must not wait for (and so deadlock with) a transaction of the same pool. */
  submit(client, bytes, startup = false) {
    return new Promise((resolve, reject) => {
      this.queue.push({ client, bytes, resolve, reject, startup });
      this.pump();
    });
  }

  async pump() {
    if (this.busy) return;
    this.busy = true;
    try {
      while (this.queue.length > 0) {
        const index = this.owner
          ? this.queue.findIndex(u => u.client === this.owner || u.startup)
          : 0;
        if (index < 0) break; // wait for the transaction owner's next unit
        const [unit] = this.queue.splice(index, 1);
        try {
          if (unit.sql)
            await this.db.exec(unit.sql); // exec takes PGlite's lock itself
          else
            await this.db.runExclusive(() =>
              this.db.execProtocolRawStream(unit.bytes, {
                onRawData: data => unit.client.write(data),
              }),
            );
          unit.resolve();
        } catch (e) {
          unit.reject(e);
        }
        if (!unit.startup)
          this.owner = this.db.isInTransaction() ? unit.client : null;
      }
    } finally {
      this.busy = false;
    }
  }

  /** A client went away: drop its queued work and end a transaction it left open. Both resets
   * are queued at once, so they run before the startup of any client that arrives meanwhile. */
  release(client) {
    const last = --this.clients === 0;
    this.queue = this.queue.filter(
      u => u.client !== client || (u.reject(new Error('client closed')), false),
    );
    if (this.owner === client) {
      this.owner = null;
      // First: other clients' waiting units must not run inside the abandoned transaction.
      this.queue.unshift(this.reset('ROLLBACK', () => {}));
    }
    if (last) {
      // All clients share one session, so what one set (SET, prepared statements, temp tables,
      // LISTEN, advisory locks) would outlive it; the next first client starts clean.
      this.queue.push(
        this.reset('DISCARD ALL', e =>
          process.stderr.write(
            `embedded-db: resetting the session of ${this.name} failed: ${e.message}\n`,
          ),
        ),
      );
    }
    this.pump();
  }

  /** A queued unit of SQL run for no client. */
  reset(sql, onError) {
    return { client: null, sql, resolve: () => {}, reject: onError };
  }
}

/**
 * Takes the data directory for this process: two servers writing one PGlite cluster corrupt it.
 * Returns the function that gives it back. Exported for tests.
 * @param {string} dataDir
 */
export function lockDataDir(dataDir) {
  const dir = path.resolve(dataDir);
  const file = path.join(dir, LOCK_FILE);
  // Only the holder of this file removes a stale lock, so a live lock is never moved or removed.
  const breaking = `${file}.break`;
  const inUse = pid =>
    new Error(
      `embedded-db: data directory ${dir} is in use by pid ${pid} (another embedded-db ` +
        `server); stop it, or delete ${file} if no such server runs`,
    );
  if (lockedHere.has(dir)) throw inUse(process.pid);
  // The token tells this lock apart from any other with the same pid.
  const mine = `${process.pid} ${randomBytes(8).toString('hex')}\n`;
  const pidIn = content => Number(content.trim().split(/\s+/)[0]);
  // Rounds repeat after a stale lock was removed, the file vanished or another server was
  // breaking it; bounded against churn.
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o600);
      try {
        fs.writeSync(fd, mine);
      } finally {
        fs.closeSync(fd);
      }
      lockedHere.add(dir);
      return () => {
        lockedHere.delete(dir);
        if (readOrNull(file) === mine) fs.rmSync(file, { force: true });
      };
    } catch (e) {
      if (errno(e) !== 'EEXIST') throw e;
    }
    // The file judged: its identity before and after reading it must agree.
    const before = statOrNull(file);
    const held = readOrNull(file);
    const after = statOrNull(file);
    if (!before || held === null || !after || !sameFile(before, after))
      continue;
    if (lockedHere.has(dir)) throw inUse(process.pid);
    const pid = pidIn(held);
    // A server between creating the file and writing its pid; give it a moment to finish.
    const starting = !pid && Date.now() - after.mtimeMs < 5000;
    if (starting || (pid !== process.pid && isAlive(pid)))
      throw inUse(pid || 'unknown');
    // Stale: its server died without removing it (crash, SIGKILL).
    if (!takeBreakLock(breaking)) continue;
    try {
      // Still the very file judged stale (a lock is only replaced after it was removed, and
      // only here): remove it, then the next round creates ours.
      const now = statOrNull(file);
      if (now && sameFile(now, after)) fs.rmSync(file, { force: true });
    } finally {
      fs.rmSync(breaking, { force: true });
    }
  }
  throw inUse('unknown');
}

/** Takes the right to remove a stale lock; false (after a short wait) while another has it. */
function takeBreakLock(breaking) {
  try {
    fs.closeSync(fs.openSync(breaking, 'wx', 0o600));
    return true;
  } catch (e) {
    if (errno(e) !== 'EEXIST') throw e;
  }
  const held = statOrNull(breaking);
  // Removing a lock takes milliseconds: a break file this old belongs to a server that died.
  if (held && Date.now() - held.mtimeMs > 10_000)
    fs.rmSync(breaking, { force: true });
  else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  return false;
}

/** @param {string} file */
function readOrNull(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    if (errno(e) === 'ENOENT') return null;
    throw e;
  }
}

/** @param {string} file */
function statOrNull(file) {
  try {
    return fs.statSync(file);
  } catch (e) {
    if (errno(e) === 'ENOENT') return null;
    throw e;
  }
}

/** @param {fs.Stats} a @param {fs.Stats} b */
function sameFile(a, b) {
  return a.ino === b.ino && a.dev === b.dev;
}

/** @param {unknown} e */
function errno(e) {
  return /** @type {NodeJS.ErrnoException} */ (e).code;
}

/** @param {number} pid */
function isAlive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return /** @type {NodeJS.ErrnoException} */ (e).code === 'EPERM'; // alive, not ours
  }
}

/** Ends a connection with `last` (if any), then destroys it: a client that never closes its side
 * must not keep the socket, and what it still sends is read and dropped (unread data would make
 * the kernel reset the connection before the error reached the client).
 * @param {net.Socket} socket @param {Buffer} [last]
 */
function closeSocket(socket, last) {
  socket.on('error', () => socket.destroy());
  socket.removeAllListeners('data');
  socket.on('data', () => {});
  const timer = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS);
  timer.unref();
  socket.end(last, () => {
    clearTimeout(timer);
    socket.destroy();
  });
}

/**
 * @typedef {{ host?: string, port?: number, dataDir?: string, maxConnections?: number,
 *   preload?: string[], authTimeoutMs?: number }} WireServerOptions host must be loopback;
 *   without dataDir everything is in memory
 */

const DEFAULT_HOST = '127.0.0.1';

/** @param {WireServerOptions} [options] */
export async function startWireServer(options = {}) {
  assertLoopbackHost(options.host ?? DEFAULT_HOST);
  const { dataDir } = options;
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Before anything in the data directory is opened or written.
  const unlock = dataDir ? lockDataDir(dataDir) : () => {};
  try {
    return await serve(options, unlock);
  } catch (e) {
    unlock();
    throw e;
  }
}

/**
 * startWireServer once the data directory is ours.
 * @param {WireServerOptions} options @param {() => void} unlock
 */
async function serve(
  {
    host = DEFAULT_HOST,
    port = 0,
    dataDir,
    maxConnections = 64,
    preload = [],
    authTimeoutMs = AUTH_TIMEOUT_MS,
  },
  unlock,
) {
  const { password, file: passwordFile } = passwordFor(dataDir);
  const verifier = scramVerifier(password);
  const instances = new Map();

  // initdb costs seconds per instance in WASM; every new database starts from one dumped,
  // already initialised cluster instead (about 4x faster).
  let template;
  const templateDump = () => {
    template ??= (async () => {
      const seed = await PGlite.create({ extensions: { vector } });
      await seed.exec('CREATE EXTENSION IF NOT EXISTS vector');
      const dump = await seed.dumpDataDir('none');
      await seed.close();
      return dump;
    })();
    return template;
  };

  async function instanceFor(database) {
    // No leading dot: names are directories in dataDir ('..' would escape it, '.password' is ours).
    const name = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,62}$/.test(database)
      ? database
      : null;
    if (!name)
      throw new Error(`invalid database name ${JSON.stringify(database)}`);
    if (!instances.has(name)) {
      const dir = dataDir ? path.join(dataDir, name) : undefined;
      const opening = (async () => {
        const initialised =
          dir !== undefined && fs.existsSync(path.join(dir, 'PG_VERSION'));
        if (dir) fs.mkdirSync(dir, { recursive: true });
        const db = await PGlite.create({
          dataDir: dir,
          extensions: { vector },
          loadDataDir: initialised ? undefined : await templateDump(),
        });
        try {
          await db.exec('CREATE EXTENSION IF NOT EXISTS vector');
        } catch (e) {
          await db.close().catch(() => {});
          throw e;
        }
        return new Instance(name, db);
      })().catch(e => {
        // Not cached: the next connection tries again (the cause may be fixed by then).
        instances.delete(name);
        const where = dir ?? 'memory';
        process.stderr.write(
          `embedded-db: opening database ${name} (${where}) failed: ${e.stack}\n`,
        );
        throw new OpenError(
          `could not open database "${name}" in ${where}: ${e.message}`,
        );
      });
      instances.set(name, opening);
    }
    return instances.get(name);
  }

  const sockets = new Set();
  const server = net.createServer(socket => {
    if (sockets.size >= maxConnections) {
      closeSocket(socket, errorResponse('53300', 'too many connections'));
      return;
    }
    sockets.add(socket);
    socket.setNoDelay(true);
    serveClient(socket, instanceFor, verifier, authTimeoutMs).finally(() =>
      sockets.delete(socket),
    );
  });
  // The port is bound before any database is opened: a second server on a port in use must fail
  // without touching anything.
  await new Promise((resolve, reject) => {
    server.once('error', e =>
      reject(
        /** @type {NodeJS.ErrnoException} */ (e).code === 'EADDRINUSE'
          ? new Error(`embedded-db: port ${port} on ${host} is in use`)
          : e,
      ),
    );
    server.listen(port, host, () => resolve(undefined));
  });
  const closeServer = () => new Promise(resolve => server.close(resolve));
  // 'localhost' is resolved by listen; report (and check) the address actually bound.
  const address = /** @type {net.AddressInfo} */ (server.address());
  if (!isLoopbackAddress(address.address)) {
    await closeServer();
    throw new Error(
      `embedded-db: ${host} resolved to ${address.address}, which is not loopback`,
    );
  }

  // Databases the caller knows it will need are opened before the server reports ready, so a
  // backend starting many plugins at once does not run into pool acquire timeouts (a client that
  // connects earlier waits for the same opening).
  try {
    await Promise.all(preload.map(name => instanceFor(name)));
  } catch (e) {
    for (const s of sockets) s.destroy();
    await closeServer();
    await closeInstances();
    throw e;
  }

  async function closeInstances() {
    for (const p of instances.values()) {
      const instance = await p.catch(() => undefined);
      await instance?.db.close().catch(() => {});
    }
  }

  return {
    host: address.address,
    port: address.port,
    user: USER,
    password,
    /** Where the password is kept; undefined for in-memory databases. */
    passwordFile,
    async stop() {
      for (const s of sockets) s.destroy();
      await closeServer();
      await closeInstances();
      unlock();
    },
  };
}

/** A database could not be opened (as opposed to a name that cannot be one). */
class OpenError extends Error {}

/**
 * @param {net.Socket} socket
 * @param {(database: string) => Promise<Instance>} instanceFor
 * @param {import('./auth.mjs').ScramVerifier} verifier
 * @param {number} authTimeoutMs
 */
async function serveClient(socket, instanceFor, verifier, authTimeoutMs) {
  let buffer = Buffer.alloc(0);
  /** @type {Instance | null} */
  let instance = null;
  /** startup → auth (SCRAM exchange) → ready (messages go to PGlite) → done */
  let phase = 'startup';
  let startup; // the startup message, handed to PGlite once the client has authenticated
  let params;
  let scram;
  let pending = [];
  let chain = Promise.resolve();
  const client = {
    write: data => {
      if (data.length > 0 && socket.writable) socket.write(Buffer.from(data));
    },
  };
  const finish = (code, text) => {
    if (phase === 'done') return;
    phase = 'done';
    buffer = Buffer.alloc(0);
    closeSocket(socket, code ? errorResponse(code, text) : undefined);
  };
  const authTimer = setTimeout(
    () => finish('08P01', 'authentication timed out'),
    authTimeoutMs,
  );

  const closed = new Promise(resolve => {
    socket.on('close', resolve);
    socket.on('error', () => socket.destroy());
  });

  socket.on('data', (/** @type {Buffer} */ chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    // Messages are handled strictly in order per client.
    chain = chain.then(() => drain()).catch(() => void socket.destroy());
  });

  /** The next whole message (type '' for startup-phase messages, which have none), or null. */
  function nextMessage() {
    const typed = phase !== 'startup';
    const offset = typed ? 1 : 0;
    if (buffer.length < offset + 4) return null;
    const declared = buffer.readInt32BE(offset); // includes itself, so at least 4
    const max = phase === 'ready' ? MAX_MESSAGE_LENGTH : MAX_STARTUP_LENGTH;
    if (declared < 4 || declared > max) {
      // Anything else would stall (a huge length) or desynchronise the stream (a short one).
      finish('08P01', `invalid message length ${declared}`);
      return null;
    }
    const length = declared + offset;
    if (buffer.length < length) return null;
    const message = buffer.subarray(0, length);
    buffer = buffer.subarray(length);
    return { type: typed ? String.fromCharCode(message[0]) : '', message };
  }

  async function drain() {
    for (let next; phase !== 'done' && (next = nextMessage()); ) {
      const { type, message } = next;
      if (phase === 'startup') onStartupMessage(message);
      else if (type === 'X') finish();
      else if (phase === 'auth') await onAuthMessage(type, message.subarray(5));
      else {
        pending.push(message);
        if (UNIT_END.has(type)) {
          const unit = Buffer.concat(pending);
          pending = [];
          await instance.submit(client, new Uint8Array(unit));
        }
      }
    }
  }

  function onStartupMessage(message) {
    if (message.length < 8) return finish('08P01', 'invalid startup packet');
    const code = message.readInt32BE(4);
    if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
      socket.write('N'); // no TLS on loopback
    } else if (code === CANCEL_REQUEST) {
      finish();
    } else if (code !== PROTOCOL_3) {
      finish('08P01', `unsupported protocol ${code}`);
    } else {
      startup = message;
      params = startupParams(message);
      scram = scramExchange(verifier, params.user);
      phase = 'auth';
      socket.write(saslRequest());
    }
  }

  async function onAuthMessage(type, body) {
    try {
      if (type !== 'p') {
        const user = params.user ?? '';
        throw new AuthError(
          '28000',
          `password authentication required for user "${user}"`,
        );
      }
      socket.write(scram.respond(body));
      if (!scram.authenticated) return;
    } catch (e) {
      if (!(e instanceof AuthError)) throw e;
      return finish(e.code, e.message);
    }
    clearTimeout(authTimer);
    try {
      instance = await instanceFor(
        params.database ?? params.user ?? 'postgres',
      );
    } catch (e) {
      // 3D000 only for a name no database can have; XX000 for one that failed to open.
      return finish(e instanceof OpenError ? 'XX000' : '3D000', e.message);
    }
    phase = 'ready';
    // PGlite answers the startup message with AuthenticationOk and the session parameters.
    await instance.attach(client, new Uint8Array(startup));
  }

  await closed;
  clearTimeout(authTimer);
  await chain.catch(() => {});
  instance?.release(client);
}

function startupParams(message) {
  const params = {};
  const parts = message.subarray(8).toString('utf8').split('\0');
  for (let i = 0; i + 1 < parts.length; i += 2) {
    if (parts[i]) params[parts[i]] = parts[i + 1];
  }
  return params;
}

function errorResponse(code, text) {
  const fields = Buffer.from(`SFATAL\0C${code}\0M${text}\0\0`, 'utf8');
  const header = Buffer.alloc(5);
  header.write('E', 0);
  header.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([header, fields]);
}
