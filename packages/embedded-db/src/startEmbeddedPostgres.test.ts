import knexFactory, { Knex } from 'knex';
import {
  EmbeddedPostgres,
  startEmbeddedPostgres,
} from './startEmbeddedPostgres';

// pg ships no types here; only a raw client is needed to drop a connection mid-transaction.
// eslint-disable-next-line @typescript-eslint/no-var-requires
const { Client } = require('pg');

describe('embedded Postgres wire server', () => {
  let pg: EmbeddedPostgres;
  const knexes: Knex[] = [];
  const connect = (database: string, max = 10) => {
    const k = knexFactory({
      client: 'pg',
      connection: { ...pg.connection, database },
      pool: { min: 0, max },
    });
    knexes.push(k);
    return k;
  };

  beforeAll(async () => {
    pg = await startEmbeddedPostgres();
  });
  afterAll(async () => {
    await Promise.all(knexes.map(k => k.destroy()));
    await pg?.stop();
  });

  it('serves pgvector', async () => {
    const db = connect('vec');
    const { rows } = await db.raw(
      `SELECT '[3,4]'::vector <-> '[0,0]'::vector AS d`,
    );
    expect(Number(rows[0].d)).toBe(5);
  });

  it('keeps concurrent extended-protocol queries of a pool apart', async () => {
    const db = connect('concurrency');
    // Each parameterised query is Parse/Bind/Execute/Sync; interleaving them across clients
    // breaks the shared unnamed statement. 400 at once over 10 connections must all succeed.
    const results = await Promise.all(
      Array.from({ length: 400 }, (_, i) =>
        db.raw('SELECT ?::int * 2 AS v, ?::text AS s', [i, `q${i}`]),
      ),
    );
    results.forEach((r, i) => {
      expect(r.rows[0]).toEqual({ v: i * 2, s: `q${i}` });
    });
  });

  it('gives a client in a transaction the database until it commits', async () => {
    const db = connect('tx');
    await db.schema.createTable('t', t => t.integer('v'));
    let outsideSawUncommitted: number | undefined;
    await db.transaction(async tx => {
      await tx('t').insert({ v: 1 });
      // another pool connection asks while the transaction is open: it waits for the commit
      const outside = db('t')
        .count('* as n')
        .first()
        .then(r => {
          outsideSawUncommitted = Number(r!.n);
        });
      await new Promise(r => setTimeout(r, 200));
      expect(outsideSawUncommitted).toBeUndefined();
      await tx('t').insert({ v: 2 });
      void outside;
    });
    await new Promise(r => setTimeout(r, 200));
    expect(outsideSawUncommitted).toBe(2);
  });

  it('rolls back a transaction whose client disconnects', async () => {
    const db = connect('disconnect');
    await db.schema.createTable('t', t => t.integer('v'));
    const client = new Client({ ...pg.connection, database: 'disconnect' });
    client.on('error', () => {}); // the abrupt close below is the point of the test
    await client.connect();
    await client.query('BEGIN');
    await client.query('INSERT INTO t VALUES (1)');
    (client as any).connection.stream.destroy();
    await new Promise(r => setTimeout(r, 300));
    expect(await db('t').count('* as n').first()).toEqual({ n: '0' });
  });

  it('gives every database its own session and data', async () => {
    const a = connect('tenant_a', 1);
    const b = connect('tenant_b', 1);
    await a.raw(
      'CREATE SCHEMA s; CREATE TABLE s.only_in_a (v int); SET search_path TO s',
    );
    await expect(b.raw('SELECT * FROM only_in_a')).rejects.toThrow(
      /does not exist/,
    );
    const { rows } = await b.raw('SHOW search_path');
    expect(rows[0].search_path).not.toContain('s,');
    expect(
      (await a.raw('SELECT count(*)::int AS n FROM only_in_a')).rows[0].n,
    ).toBe(0);
  });

  it('rejects an invalid database name', async () => {
    const client = new Client({ ...pg.connection, database: 'bad name;drop' });
    await expect(client.connect()).rejects.toThrow(/invalid database name/);
  });
});
