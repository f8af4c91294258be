import { createHash } from 'crypto';
import { Knex } from 'knex';

/**
 * Vectors are stored and indexed as `halfvec` (16-bit floats, migration 0007): half the bytes
 * of `vector` in the table and in the HNSW graph, for cosine distances that differ in the fourth
 * decimal (decision record 0011).
 */
export const VECTOR_TYPE = 'halfvec';

/** pgvector's HNSW limit for the `halfvec` type. */
export const MAX_INDEXED_DIMENSION = 4000;

export function assertDimension(dimension: number): void {
  if (!Number.isInteger(dimension) || dimension < 1 || dimension > 16000) {
    throw new Error(`invalid embedding dimension ${dimension}`);
  }
}

/** Stable, identifier-safe index name for a model and dimension. */
export function vectorIndexName(modelId: string, dimension: number): string {
  const hash = createHash('sha256')
    .update(`${modelId}\u0000${dimension}\u0000${VECTOR_TYPE}`)
    .digest('hex')
    .slice(0, 16);
  return `ask_docs_emb_hnsw_${hash}`;
}

/** A query vector as a pgvector literal (bound as text, cast in SQL). */
export function toVectorLiteral(vector: number[]): string {
  if (
    !Array.isArray(vector) ||
    vector.length === 0 ||
    !vector.every(v => typeof v === 'number' && Number.isFinite(v))
  ) {
    throw new Error('query vector must be a non-empty array of finite numbers');
  }
  return `[${vector.join(',')}]`;
}

/**
 * The typed cast both the index and every query use; the planner only picks the index when the
 * query's ORDER BY expression is the same.
 */
export function embeddingExpression(
  alias: string | undefined,
  dimension: number,
): string {
  assertDimension(dimension);
  if (alias !== undefined && !/^[a-z_][a-z0-9_]*$/i.test(alias))
    throw new Error(`invalid alias ${alias}`);
  return `(${alias ? `${alias}.` : ''}embedding::${VECTOR_TYPE}(${dimension}))`;
}

/**
 * A SQL string literal for DDL, where bind parameters are not allowed. E'' syntax makes the
 * escaping independent of standard_conforming_strings; `?` is escaped for knex.raw.
 */
export function quoteLiteralForRaw(value: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) {
    throw new Error('control characters are not allowed in model ids');
  }
  const escaped = value
    .replace(/\\/g, '\\\\')
    .replace(/'/g, "''")
    .replace(/\?/g, '\\?');
  return `E'${escaped}'`;
}

/**
 * Memory for the HNSW build (`maintenance_work_mem`, set for the build's transaction only). With
 * Postgres' 64MB default a graph of 100k × 384 does not fit and the build did not finish in
 * 15 minutes; with 512MB it took 140 s (docs/evaluation.md, benchmark).
 */
export const DEFAULT_HNSW_BUILD_MEMORY = '512MB';
/** A maintenance_work_mem value; it is interpolated into SET LOCAL, so nothing else passes. */
export const HNSW_BUILD_MEMORY_PATTERN = /^[1-9][0-9]{0,6}(kB|MB|GB)$/;

/**
 * Creates the model's partial HNSW index (cosine) if it does not exist yet. Idempotent and safe
 * to race: a concurrent creator's duplicate-name error is ignored once the index exists.
 * Dimensions above the HNSW limit get no index; vector search still works, exactly.
 */
export async function ensureVectorIndex(
  knex: Knex,
  modelId: string,
  dimension: number,
  options: { m?: number; efConstruction?: number; buildMemory?: string } = {},
): Promise<{ indexName: string; created: boolean }> {
  assertDimension(dimension);
  const indexName = vectorIndexName(modelId, dimension);
  if (dimension > MAX_INDEXED_DIMENSION) return { indexName, created: false };
  const m = options.m ?? 16;
  const efConstruction = options.efConstruction ?? 64;
  if (
    ![m, efConstruction].every(v => Number.isInteger(v) && v > 1 && v <= 1000)
  ) {
    throw new Error('invalid HNSW build parameters');
  }
  const buildMemory = options.buildMemory ?? DEFAULT_HNSW_BUILD_MEMORY;
  if (!HNSW_BUILD_MEMORY_PATTERN.test(buildMemory)) {
    throw new Error(
      `invalid HNSW build memory "${buildMemory}" (expected e.g. 512MB)`,
    );
  }
  if (await indexExists(knex, indexName)) return { indexName, created: false };
  try {
    await knex.transaction(async trx => {
      await trx.raw(`SET LOCAL maintenance_work_mem = '${buildMemory}'`);
      await trx.raw(
        `CREATE INDEX IF NOT EXISTS ${indexName} ON ask_docs_embeddings ` +
          `USING hnsw (${embeddingExpression(
            undefined,
            dimension,
          )} ${VECTOR_TYPE}_cosine_ops) ` +
          `WITH (m = ${m}, ef_construction = ${efConstruction}) ` +
          `WHERE model_id = ${quoteLiteralForRaw(
            modelId,
          )} AND dimension = ${dimension}`,
      );
    });
  } catch (e) {
    if (!(await indexExists(knex, indexName))) throw e;
    return { indexName, created: false };
  }
  return { indexName, created: true };
}

async function indexExists(knex: Knex, indexName: string): Promise<boolean> {
  const result = await knex.raw(
    'SELECT 1 FROM pg_indexes WHERE indexname = ?',
    [indexName],
  );
  return result.rows.length > 0;
}
