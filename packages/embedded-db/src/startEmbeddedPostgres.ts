import { spawn, ChildProcess } from 'child_process';
import path from 'path';
import readline from 'readline';

export interface EmbeddedPostgresOptions {
  /** Directory for persistent data; in-memory when omitted (tests). */
  dataDir?: string;
  /** 0 picks a free port. */
  port?: number;
  /** A loopback address or `localhost`; anything else is refused (development-only server). */
  host?: string;
  /** Concurrent wire connections multiplexed onto the single PGlite instance. */
  maxConnections?: number;
  /** Databases to open before accepting connections; default ['postgres']. */
  preload?: string[];
  /** How long a client may take to authenticate before it is dropped; default 30 s. */
  authTimeoutMs?: number;
  /** How long to wait for the server to accept connections. */
  startTimeoutMs?: number;
}

export interface EmbeddedPostgres {
  host: string;
  port: number;
  /**
   * Connection settings for knex / Backstage `backend.database.connection`. The password is the
   * data directory's (kept in its `.password` file), or a fresh random one for in-memory data.
   */
  connection: {
    host: string;
    port: number;
    user: string;
    password: string;
    database: string;
  };
  connectionString: string;
  /** The file holding the password; undefined for in-memory data. */
  passwordFile?: string;
  /** Process id of the server, e.g. to simulate a crash in reliability tests. */
  pid: number;
  stop(): Promise<void>;
}

/** The status line server.mjs prints on stdout once it accepts connections. */
interface ReadyLine {
  ready: true;
  host: string;
  port: number;
  user: string;
  password: string;
  passwordFile?: string;
}

/** Path of the server script, for callers that run it directly (the dev start script). */
export const embeddedServerScript = path.resolve(__dirname, '..', 'server.mjs');

/** Starts PGlite + pgvector in a child process, serving the Postgres wire protocol on loopback. */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions = {},
): Promise<EmbeddedPostgres> {
  const args = [embeddedServerScript, '--exit-with-parent'];
  args.push(
    '--host',
    options.host ?? '127.0.0.1',
    '--port',
    String(options.port ?? 0),
  );
  if (options.dataDir) args.push('--data-dir', options.dataDir);
  if (options.maxConnections)
    args.push('--max-connections', String(options.maxConnections));
  if (options.authTimeoutMs)
    args.push('--auth-timeout-ms', String(options.authTimeoutMs));
  // The default database is opened before "ready", so a client's first connection does not
  // wait for PGlite to boot inside its pool's acquire timeout.
  const preload = options.preload ?? ['postgres'];
  if (preload.length) args.push('--preload', preload.join(','));

  const child = spawn(process.execPath, args, {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', d => {
    stderr = (stderr + d.toString()).slice(-4000);
  });

  const ready = await new Promise<ReadyLine>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`embedded-db: server did not start in time. ${stderr}`));
    }, options.startTimeoutMs ?? 180_000);
    const lines = readline.createInterface({ input: child.stdout! });
    lines.on('line', line => {
      try {
        const msg = JSON.parse(line);
        if (msg.ready) {
          clearTimeout(timer);
          resolve(msg);
        }
      } catch {
        // not our status line
      }
    });
    child.once('exit', code => {
      clearTimeout(timer);
      reject(
        new Error(`embedded-db: server exited with code ${code}. ${stderr}`),
      );
    });
  });

  const { host, port, user, password } = ready;
  const connection = { host, port, user, password, database: 'postgres' };
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    host,
    port,
    connection,
    connectionString: `postgres://${user}:${encodeURIComponent(
      password,
    )}@${urlHost}:${port}/postgres`,
    passwordFile: ready.passwordFile,
    pid: child.pid!,
    stop: () => stopChild(child),
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve();
  return new Promise(resolve => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
