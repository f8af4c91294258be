/* Measurement helpers for the benchmark: timing loops, process memory, relation sizes. */
import fs from 'fs';
import { Knex } from 'knex';
import { percentile } from '../eval/metrics';

export interface Latency {
  n: number;
  p50: number;
  p95: number;
  mean: number;
  /** With several passes over the inputs: each pass's own p50 and p95 (the spread). */
  passes?: Array<{ p50: number; p95: number }>;
  /** The three slowest timings with their place in the pass (0: first), to tell a slow start. */
  slowest: Array<{ at: number; ms: number }>;
}

/**
 * Times `fn` once per input after `warmup` untimed calls, `passes` times over the inputs; the
 * percentiles are over all timings. More than one pass steadies a p95 of few inputs (of 30,
 * the second slowest), which one slow moment of a shared machine otherwise decides.
 */
export async function timeEach<T>(
  inputs: T[],
  fn: (input: T) => Promise<unknown>,
  options: { warmup?: number; passes?: number } = {},
): Promise<Latency> {
  const { warmup = 2, passes = 1 } = options;
  for (const input of inputs.slice(0, warmup)) await fn(input);
  const ms: number[] = [];
  const perPass: Array<{ p50: number; p95: number }> = [];
  for (let pass = 0; pass < passes; pass++) {
    const times: number[] = [];
    for (const input of inputs) {
      const t0 = performance.now();
      await fn(input);
      times.push(performance.now() - t0);
    }
    ms.push(...times);
    perPass.push({ p50: percentile(times, 50), p95: percentile(times, 95) });
  }
  return {
    n: ms.length,
    p50: percentile(ms, 50),
    p95: percentile(ms, 95),
    mean: ms.reduce((a, b) => a + b, 0) / ms.length,
    slowest: ms
      .map((t, i) => ({ at: i % inputs.length, ms: Math.round(t * 10) / 10 }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 3),
    ...(passes > 1 ? { passes: perPass } : {}),
  };
}

/** Resident set size of a process in bytes (Linux /proc), or undefined when unreadable. */
export function rssOf(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(
      fs.readFileSync(`/proc/${pid}/status`, 'utf8'),
    );
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Total size (indexes and TOAST included) of each knowledge-index table and each index, bytes. */
export async function relationSizes(knex: Knex): Promise<{
  tables: Record<string, number>;
  indexes: Record<string, number>;
}> {
  const tables = await knex.raw(
    `SELECT c.relname AS name, pg_total_relation_size(c.oid)::float8 AS bytes FROM pg_class c
      WHERE c.relkind = 'r' AND c.relname LIKE 'ask_docs_%' ORDER BY c.relname`,
  );
  const indexes = await knex.raw(
    `SELECT c.relname AS name, pg_relation_size(c.oid)::float8 AS bytes FROM pg_class c
      WHERE c.relkind = 'i' AND c.relname LIKE 'ask_docs_%' ORDER BY c.relname`,
  );
  const toRecord = (rows: Array<{ name: string; bytes: number }>) =>
    Object.fromEntries(rows.map(r => [r.name, Number(r.bytes)]));
  return { tables: toRecord(tables.rows), indexes: toRecord(indexes.rows) };
}

export const mb = (bytes: number | undefined) =>
  bytes === undefined ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const ratio = (a: number, b: number) =>
  b > 0 ? `${(a / b).toFixed(2)}×` : 'n/a';

/** One table's bytes with its indexes and TOAST (0 when it does not exist). */
export async function tableBytes(knex: Knex, table: string): Promise<number> {
  const result = await knex.raw(
    `SELECT coalesce(pg_total_relation_size(to_regclass(?)), 0)::float8 AS bytes`,
    [table],
  );
  return Number(result.rows[0].bytes);
}

export interface ServerSettings {
  version: string;
  pgvector: string;
  sharedBuffers: string;
}

/** What the latency figures depend on beyond the machine: the server and its buffer memory. */
export async function serverSettings(knex: Knex): Promise<ServerSettings> {
  const row = (
    await knex.raw(
      `SELECT version() AS version, current_setting('shared_buffers') AS shared_buffers,
              (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS pgvector`,
    )
  ).rows[0];
  return {
    version: String(row.version),
    pgvector: String(row.pgvector ?? 'none'),
    sharedBuffers: String(row.shared_buffers),
  };
}

/**
 * Loads the knowledge index (ask_docs_* tables, their indexes and TOAST) into shared buffers
 * with pg_prewarm, as on a server that has been answering questions for a while: right after
 * a bulk load most pages are only in the operating system's cache, and reading them from there
 * costs more than the query (decision record 0011). False when the extension is unavailable
 * (the embedded database, or no right to create it): nothing is warmed then.
 */
export async function prewarmIndex(knex: Knex): Promise<boolean> {
  try {
    await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_prewarm');
  } catch {
    return false;
  }
  for (const rel of await knowledgeIndexRelations(knex)) {
    await knex.raw('SELECT pg_prewarm(?::regclass)', [rel]);
  }
  return true;
}

/** The knowledge index's relations: ask_docs_* tables, their indexes, TOAST and its indexes. */
async function knowledgeIndexRelations(knex: Knex): Promise<string[]> {
  const relations = await knex.raw(
    `WITH own AS (SELECT oid, reltoastrelid FROM pg_class
                   WHERE relname LIKE 'ask!_docs!_%' ESCAPE '!' AND relkind = 'r')
     SELECT oid::regclass::text AS rel FROM own
     UNION SELECT indexrelid::regclass::text FROM pg_index WHERE indrelid IN (SELECT oid FROM own)
     UNION SELECT reltoastrelid::regclass::text FROM own WHERE reltoastrelid <> 0
     UNION SELECT indexrelid::regclass::text FROM pg_index
            WHERE indrelid IN (SELECT reltoastrelid FROM own)`,
  );
  return (relations.rows as Array<{ rel: string }>).map(r => r.rel);
}

/**
 * The share of the knowledge index's pages that are in shared buffers (pg_buffercache), so a
 * first pass can be told apart from one that reads the operating system's cache; undefined
 * without the extension.
 */
export async function bufferedShare(knex: Knex): Promise<number | undefined> {
  try {
    await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_buffercache');
  } catch {
    return undefined;
  }
  const rels = await knowledgeIndexRelations(knex);
  const { rows } = await knex.raw(
    `WITH r AS (SELECT pg_relation_filenode(c.oid) AS node,
                       pg_relation_size(c.oid) / 8192 AS pages
                  FROM pg_class c WHERE c.oid = ANY(?::regclass[]))
     SELECT (SELECT sum(pages) FROM r)::float8 AS pages,
            (SELECT count(*) FROM pg_buffercache b JOIN r ON b.relfilenode = r.node
              WHERE b.reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
                AND b.relforknumber = 0)::float8 AS buffered`,
    [rels],
  );
  const { pages, buffered } = rows[0];
  return pages > 0 ? buffered / pages : undefined;
}
