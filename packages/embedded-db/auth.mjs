// @ts-check
// Who may talk to the embedded server: loopback only, and only with the password.
//
// The password is checked with SCRAM-SHA-256 (RFC 5802 / 7677, as Postgres does it), which is
// what node-postgres, knex and psql use against a real server: the password never crosses the
// socket, and the client checks the server's signature too. Cleartext or md5 would be simpler
// but md5 is deprecated in Postgres and cleartext sends the password as is.
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** The one role; PGlite runs every session as its superuser anyway. */
export const USER = 'postgres';
/** Inside the data dir; the leading dot keeps it apart from the per-database directories. */
export const PASSWORD_FILE = '.password';
const ITERATIONS = 4096; // Postgres' default scram_iterations
const MECHANISM = 'SCRAM-SHA-256';

/** An authentication failure, sent to the client as a Postgres ErrorResponse. */
export class AuthError extends Error {
  /** @param {string} code SQLSTATE @param {string} message */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const loopback = new net.BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6'); // also matches ::ffff:127.x.y.z

/** @param {string} address an IP address */
export function isLoopbackAddress(address) {
  const family = net.isIPv4(address)
    ? 'ipv4'
    : net.isIPv6(address)
    ? 'ipv6'
    : undefined;
  return family !== undefined && loopback.check(address, family);
}

/** Throws unless `host` can only mean this machine. @param {string} host */
export function assertLoopbackHost(host) {
  if (host === 'localhost' || isLoopbackAddress(host)) return;
  throw new Error(
    `embedded-db: refusing to listen on ${JSON.stringify(
      host,
    )}: this development server has ` +
      'no TLS and one shared password, so it listens on loopback only (127.0.0.1, ::1 or ' +
      'localhost). Use a real Postgres server for anything else.',
  );
}

/**
 * The password of a data directory: read from its password file, or generated and stored there
 * (mode 0600) on first start. Without a data directory (in-memory databases) a fresh one.
 * @param {string | undefined} dataDir
 * @returns {{ password: string, file?: string }}
 */
export function passwordFor(dataDir) {
  const generate = () => crypto.randomBytes(24).toString('base64url');
  if (!dataDir) return { password: generate() };
  const file = path.join(dataDir, PASSWORD_FILE);
  try {
    // 'wx': two servers starting on one new data dir must not each write their own password.
    const fd = fs.openSync(file, 'wx', 0o600);
    const password = generate();
    try {
      fs.fchmodSync(fd, 0o600);
      // No newline: Backstage's `$file` config includes the file's content as it is.
      fs.writeSync(fd, password);
    } finally {
      fs.closeSync(fd);
    }
    return { password, file };
  } catch (e) {
    if (/** @type {NodeJS.ErrnoException} */ (e).code !== 'EEXIST') throw e;
  }
  if ((fs.statSync(file).mode & 0o077) !== 0) {
    fs.chmodSync(file, 0o600);
    process.stderr.write(
      `embedded-db: ${file} was readable by others; now mode 0600\n`,
    );
  }
  const password = fs.readFileSync(file, 'utf8').trim();
  if (!/^[\x21-\x7e]+$/.test(password)) {
    throw new Error(
      `embedded-db: ${file} must hold the password as one line of printable ASCII without ` +
        'spaces; delete the file to have a new password generated',
    );
  }
  return { password, file };
}

/**
 * The server's side of SCRAM-SHA-256, for one password. Keys are derived once (PBKDF2 is the
 * slow part); each connection then costs a few HMACs.
 * @param {string} password
 */
export function scramVerifier(password) {
  const salt = crypto.randomBytes(16);
  const salted = crypto.pbkdf2Sync(password, salt, ITERATIONS, 32, 'sha256');
  return {
    salt: salt.toString('base64'),
    storedKey: sha256(hmac(salted, 'Client Key')),
    serverKey: hmac(salted, 'Server Key'),
  };
}

/** @typedef {ReturnType<typeof scramVerifier>} ScramVerifier */

/** The AuthenticationSASL request that starts the exchange. */
export function saslRequest() {
  return authMessage(10, Buffer.from(`${MECHANISM}\0\0`));
}

/**
 * One client's exchange. `respond` takes the body of each password message ('p': first the
 * SASLInitialResponse, then the SASLResponse) and returns the reply to send; `authenticated` is
 * true once the proof matched. Anything wrong throws AuthError: 28P01 for a wrong password or
 * user, 28000 for a malformed exchange.
 * @param {ScramVerifier} verifier
 * @param {string | undefined} user the startup message's user
 */
export function scramExchange(verifier, user) {
  /**
   * @typedef {{ gs2: string, clientFirstBare: string, serverFirst: string, nonce: string }} State
   */
  /** @type {State | undefined} */
  let state;

  /** @param {Buffer} body */
  function first(body) {
    const nul = body.indexOf(0);
    if (nul < 0 || body.subarray(0, nul).toString('utf8') !== MECHANISM) {
      throw new AuthError('28000', `expected SASL mechanism ${MECHANISM}`);
    }
    const length = body.length >= nul + 5 ? body.readInt32BE(nul + 1) : -1;
    const clientFirst = body
      .subarray(nul + 5, nul + 5 + Math.max(length, 0))
      .toString('utf8');
    // gs2 header: n (no channel binding) or y (client could, server did not offer); no authzid
    const match = /^([ny]),,(n=[^,]*,r=([\x21-\x2b\x2d-\x7e]+)(?:,.*)?)$/.exec(
      clientFirst,
    );
    if (length < 0 || !match)
      throw new AuthError('28000', 'malformed SCRAM client-first-message');
    const nonce = match[3] + crypto.randomBytes(18).toString('base64');
    const serverFirst = `r=${nonce},s=${verifier.salt},i=${ITERATIONS}`;
    state = {
      gs2: `${match[1]},,`,
      clientFirstBare: match[2],
      serverFirst,
      nonce,
    };
    return authMessage(11, Buffer.from(serverFirst));
  }

  /** @param {Buffer} body @param {State} started */
  function final(body, started) {
    const clientFinal = body.toString('utf8');
    const at = clientFinal.lastIndexOf(',p=');
    const withoutProof = clientFinal.slice(0, Math.max(at, 0));
    const attributes = new Map(
      withoutProof.split(',').map(a => [a.slice(0, 2), a.slice(2)]),
    );
    const proof = Buffer.from(clientFinal.slice(at + 3), 'base64');
    if (
      at < 0 ||
      attributes.get('c=') !== Buffer.from(started.gs2).toString('base64') ||
      attributes.get('r=') !== started.nonce ||
      proof.length !== 32
    ) {
      throw new AuthError('28000', 'malformed SCRAM client-final-message');
    }
    const message = `${started.clientFirstBare},${started.serverFirst},${withoutProof}`;
    const clientKey = xor(proof, hmac(verifier.storedKey, message));
    const proofOk = crypto.timingSafeEqual(
      sha256(clientKey),
      verifier.storedKey,
    );
    // One answer for a wrong password and an unknown user, as Postgres does.
    if (!proofOk || user !== USER) {
      throw new AuthError(
        '28P01',
        `password authentication failed for user "${user ?? ''}"`,
      );
    }
    const serverSignature = hmac(verifier.serverKey, message).toString(
      'base64',
    );
    return authMessage(12, Buffer.from(`v=${serverSignature}`));
  }

  return {
    authenticated: false,
    /** @param {Buffer} body @returns {Buffer} */
    respond(body) {
      if (this.authenticated)
        throw new AuthError('28000', 'already authenticated');
      if (!state) return first(body);
      const reply = final(body, state);
      this.authenticated = true;
      return reply;
    },
  };
}

/** @param {number} kind @param {Buffer} data */
function authMessage(kind, data) {
  const header = Buffer.alloc(9);
  header.write('R', 0);
  header.writeInt32BE(8 + data.length, 1);
  header.writeInt32BE(kind, 5);
  return Buffer.concat([header, data]);
}

/** @param {Buffer} key @param {string} data */
function hmac(key, data) {
  return crypto.createHmac('sha256', key).update(data).digest();
}

/** @param {Buffer} data */
function sha256(data) {
  return crypto.createHash('sha256').update(data).digest();
}

/** @param {Buffer} a @param {Buffer} b */
function xor(a, b) {
  return Buffer.from(a.map((byte, i) => byte ^ b[i]));
}
