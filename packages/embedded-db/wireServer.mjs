// A Postgres wire-protocol front for PGlite instances, one instance per database name.
//
// Why not pglite-socket's server: it queues single protocol messages, so a Parse from one client
// can land between another client's Parse and Bind ("unnamed prepared statement does not exist"),
// and all clients share one session (a plugin's `SET search_path` changes every other plugin's).
// Here each client's messages run as whole units (up to Sync or a simple Query), a client in a
// transaction keeps the instance until it ends, and every database gets its own PGlite, so
// Backstage's one-database-per-plugin layout works unchanged.
import net from 'node:net';
import path from 'node:path';
import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const GSSENC_REQUEST = 80877104;
const PROTOCOL_3 = 196608;

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
        const index = this.owner ? this.queue.findIndex(u => u.client === this.owner || u.startup) : 0;
        if (index < 0) break; // wait for the transaction owner's next unit
        const [unit] = this.queue.splice(index, 1);
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(unit.bytes, { onRawData: data => unit.client.write(data) }),
          );
          unit.resolve();
        } catch (e) {
          unit.reject(e);
        }
        if (!unit.startup) this.owner = this.db.isInTransaction() ? unit.client : null;
      }
    } finally {
      this.busy = false;
    }
  }

  /** A client went away: drop its queued work and end a transaction it left open. */
  async release(client) {
    this.queue = this.queue.filter(u => u.client !== client || (u.reject(new Error('client closed')), false));
    if (this.owner === client) {
      this.owner = null;
      // exec takes PGlite's own lock; runExclusive around it would deadlock.
      await this.db.exec('ROLLBACK').catch(() => {});
    }
    this.pump();
  }
}

export async function startWireServer({ host = '127.0.0.1', port = 0, dataDir, maxConnections = 64, preload = [] } = {}) {
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
    const name = /^[A-Za-z0-9_.-]{1,63}$/.test(database) ? database : null;
    if (!name) throw new Error(`invalid database name ${JSON.stringify(database)}`);
    if (!instances.has(name)) {
      instances.set(
        name,
        (async () => {
          const dir = dataDir ? path.join(dataDir, name) : undefined;
          const initialised = dir !== undefined && fs.existsSync(path.join(dir, 'PG_VERSION'));
          if (dir) fs.mkdirSync(dir, { recursive: true });
          const db = await PGlite.create({
            dataDir: dir,
            extensions: { vector },
            loadDataDir: initialised ? undefined : await templateDump(),
          });
          await db.exec('CREATE EXTENSION IF NOT EXISTS vector');
          return new Instance(name, db);
        })(),
      );
    }
    return instances.get(name);
  }

  // Databases the caller knows it will need are opened before the server accepts connections,
  // so a backend starting many plugins at once does not run into pool acquire timeouts.
  await Promise.all(preload.map(name => instanceFor(name)));

  const sockets = new Set();
  const server = net.createServer(socket => {
    if (sockets.size >= maxConnections) {
      socket.end(errorResponse('53300', 'too many connections'));
      return;
    }
    sockets.add(socket);
    socket.setNoDelay(true);
    serveClient(socket, instanceFor).finally(() => sockets.delete(socket));
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });

  return {
    host,
    port: server.address().port,
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise(resolve => server.close(() => resolve()));
      for (const p of instances.values()) {
        const instance = await p.catch(() => undefined);
        await instance?.db.close().catch(() => {});
      }
    },
  };
}

async function serveClient(socket, instanceFor) {
  let buffer = Buffer.alloc(0);
  let instance = null;
  let started = false;
  let pending = [];
  let chain = Promise.resolve();
  const client = {
    write: data => {
      if (data.length > 0 && socket.writable) socket.write(Buffer.from(data));
    },
  };

  const closed = new Promise(resolve => {
    socket.on('close', resolve);
    socket.on('error', () => socket.destroy());
  });

  socket.on('data', chunk => {
    buffer = Buffer.concat([buffer, chunk]);
    // Messages are handled strictly in order per client.
    chain = chain.then(() => drain()).catch(() => socket.destroy());
  });

  async function drain() {
    for (;;) {
      if (!started) {
        if (buffer.length < 8) return;
        const length = buffer.readInt32BE(0);
        if (buffer.length < length) return;
        const code = buffer.readInt32BE(4);
        const message = buffer.subarray(0, length);
        buffer = buffer.subarray(length);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          socket.write('N'); // no TLS on loopback
          continue;
        }
        if (code === CANCEL_REQUEST) {
          socket.end();
          return;
        }
        if (code !== PROTOCOL_3) {
          socket.end(errorResponse('08P01', `unsupported protocol ${code}`));
          return;
        }
        const params = startupParams(message);
        try {
          instance = await instanceFor(params.database ?? params.user ?? 'postgres');
        } catch (e) {
          socket.end(errorResponse('3D000', e.message));
          return;
        }
        started = true;
        await instance.submit(client, new Uint8Array(message), true);
        continue;
      }
      if (buffer.length < 5) return;
      const length = buffer.readInt32BE(1) + 1;
      if (buffer.length < length) return;
      const type = String.fromCharCode(buffer[0]);
      const message = buffer.subarray(0, length);
      buffer = buffer.subarray(length);
      if (type === 'X') {
        socket.end();
        return;
      }
      pending.push(message);
      if (UNIT_END.has(type)) {
        const unit = Buffer.concat(pending);
        pending = [];
        await instance.submit(client, new Uint8Array(unit));
      }
    }
  }

  await closed;
  await chain.catch(() => {});
  if (instance) await instance.release(client);
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
