/*
 * Builds a knowledge index of shared corpora with the real Ingester, store and migrations on
 * embedded Postgres + pgvector. Optionally cached: the PGlite data folder is kept under
 * os.tmpdir(), keyed by a hash of the corpora and of the code that shapes the index.
 */
import { startEmbeddedPostgres } from '@askdocs/embedded-db';
import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import crypto from 'crypto';
import fs from 'fs';
import knexFactory, { Knex } from 'knex';
import os from 'os';
import path from 'path';
import { applyDatabaseMigrations } from '../../plugins/ask-docs-backend/src/database/migrations';
// prettier-ignore
import {
  DatabaseAskDocsStore,
} from '../../plugins/ask-docs-backend/src/database/DatabaseAskDocsStore';
import { RunProgress } from '../../plugins/ask-docs-backend/src/database/AskDocsStore';
import { Embedder } from '../../plugins/ask-docs-backend/src/embedding';
import { Ingester } from '../../plugins/ask-docs-backend/src/ingestion/Ingester';
import {
  EntitySource,
  TechDocsReader,
} from '../../plugins/ask-docs-backend/src/ingestion/sources';
import { corpusArchive } from '../../plugins/ask-docs-backend/src/ingestion/parsing/testUtils';
import {
  Analyzers,
  createLanguageAnalyzers,
} from '../../plugins/ask-docs-backend/src/language';
import { ensureVectorIndex } from '../../plugins/ask-docs-backend/src/database/vectorIndex';
import {
  CorpusSite,
  FileTechDocsReader,
  StaticEntitySource,
  corpusSite,
  docsComponent,
  listFiles,
  quietLogger,
} from '../src';
import { createFullTextBaseline } from './pgFullText';

export const EVAL_LANGUAGES = ['en', 'cs'];

/**
 * The analyzers the plugin builds from app-config (Czech hunspell where Debian installs it),
 * with a bilingual dictionary when given (its files' path without extensions, English → Czech).
 */
export async function evalAnalyzers(
  bilingualDictionary?: string,
): Promise<Analyzers> {
  const aff = '/usr/share/hunspell/cs_CZ.aff';
  const dic = '/usr/share/hunspell/cs_CZ.dic';
  return createLanguageAnalyzers({
    languages: EVAL_LANGUAGES,
    hunspell:
      fs.existsSync(aff) && fs.existsSync(dic)
        ? { cs: { affPath: aff, dicPath: dic } }
        : {},
    onMissingDictionary: 'stem-only',
    logger: quietLogger(),
    ...(bilingualDictionary
      ? {
          bilingualDictionary: {
            path: bilingualDictionary,
            from: 'en',
            to: 'cs',
          },
        }
      : {}),
  });
}

/** Entity name of a corpus in the evaluation index. */
export const corpusEntityRef = (corpus: string) =>
  `component:default/${corpus}`;

export interface EvalDatabase {
  knex: Knex;
  /** Process id of the embedded server (undefined for ASK_DOCS_TEST_PG_URL). */
  pid?: number;
  stop(): Promise<void>;
}

export interface BuiltIndex extends EvalDatabase {
  sites: Map<string, CorpusSite>;
  /** Ingestion progress; undefined when the cached index was reused. */
  progress?: RunProgress;
  ingestSeconds: number;
  cached: boolean;
  analyzers: Analyzers;
}

/** Starts embedded Postgres (in memory, or persisted in `dataDir`) with our migrations. */
export async function startEvalDatabase(
  options: { dataDir?: string } = {},
): Promise<EvalDatabase> {
  const external = process.env.ASK_DOCS_TEST_PG_URL;
  const embedded = external
    ? undefined
    : await startEmbeddedPostgres({
        dataDir: options.dataDir,
        startTimeoutMs: 120_000,
      });
  const knex = knexFactory({
    client: 'pg',
    connection: external ?? embedded!.connection,
    pool: { min: 0, max: 4 },
  });
  await applyDatabaseMigrations(knex);
  return {
    knex,
    pid: embedded?.pid,
    async stop() {
      await knex.destroy();
      await embedded?.stop();
    },
  };
}

/** Runs the real Ingester once over the given entities and pages. */
export async function ingest(options: {
  knex: Knex;
  /** The catalog's entities, as a list or a source. */
  entities: EntitySource | Entity[];
  techdocs: TechDocsReader;
  embedder: Embedder;
  analyzers: Analyzers;
  concurrency?: number;
}): Promise<RunProgress> {
  const ingester = new Ingester({
    store: new DatabaseAskDocsStore(options.knex),
    entities: Array.isArray(options.entities)
      ? new StaticEntitySource(options.entities)
      : options.entities,
    techdocs: options.techdocs,
    embedder: options.embedder,
    analyzers: options.analyzers,
    languages: EVAL_LANGUAGES,
    logger: quietLogger(),
    concurrency: options.concurrency,
  });
  return ingester.run('manual');
}

function hashTree(hash: crypto.Hash, dir: string) {
  for (const f of listFiles(dir)
    .filter(x => /\.(ts|js|json)$/.test(x) && !/\.test\.ts$/.test(x))
    .sort()) {
    hash.update(f).update(fs.readFileSync(path.join(dir, f)));
  }
}

/** Cache key: corpora archives (size, mtime), ingestion/analysis/storage code, embedder id. */
export function indexCacheKey(corpora: string[], embedder: Embedder): string {
  const hash = crypto.createHash('sha256');
  hash.update(embedder.modelId).update(String(embedder.dimension));
  for (const c of [...corpora].sort()) {
    const s = fs.statSync(corpusArchive(c));
    hash.update(`${c}:${s.size}:${s.mtimeMs}`);
  }
  const src = path.resolve(__dirname, '../../plugins/ask-docs-backend/src');
  for (const part of ['ingestion', 'language', 'embedding', 'database'])
    hashTree(hash, path.join(src, part));
  hashTree(
    hash,
    path.resolve(__dirname, '../../plugins/ask-docs-backend/migrations'),
  );
  for (const f of [
    path.join(__dirname, 'buildIndex.ts'),
    path.join(__dirname, 'pgFullText.ts'),
    path.resolve(__dirname, '../src/fileTechDocsReader.ts'),
  ]) {
    hash.update(fs.readFileSync(f));
  }
  return hash.digest('hex').slice(0, 20);
}

/**
 * One Component per corpus, each with its site, ingested into one index, then the model's
 * HNSW index and the full-text baseline table. With `cache`, a finished index is reused.
 */
export async function buildEvalIndex(options: {
  corpora: string[];
  embedder: Embedder;
  cache?: boolean;
  onProgress?: (message: string) => void;
  /** Default: evalAnalyzers(). */
  analyzers?: Analyzers;
}): Promise<BuiltIndex> {
  const { corpora, embedder } = options;
  const say = options.onProgress ?? (() => {});
  const analyzers = options.analyzers ?? (await evalAnalyzers());
  const sites = new Map<string, CorpusSite>();
  for (const c of corpora) sites.set(c, await corpusSite(c));

  let dataDir: string | undefined;
  let cached = false;
  if (options.cache && !process.env.ASK_DOCS_TEST_PG_URL) {
    const cacheRoot = path.join(os.tmpdir(), 'ask-docs-eval-db');
    const slug = `${[...corpora].sort().join('+')}-${embedder.modelId}`;
    dataDir = path.join(
      cacheRoot,
      `${slug}-${indexCacheKey(corpora, embedder)}`,
    );
    cached = fs.existsSync(`${dataDir}.complete`);
    if (!cached) {
      // Indexes of the same corpora built by older code are not kept: each is a few hundred MB.
      fs.mkdirSync(cacheRoot, { recursive: true });
      for (const old of fs
        .readdirSync(cacheRoot)
        .filter(f => f.startsWith(`${slug}-`))) {
        fs.rmSync(path.join(cacheRoot, old), { recursive: true, force: true });
      }
    }
  }
  const db = await startEvalDatabase({ dataDir });
  if (cached) {
    say(`reusing cached index ${dataDir}`);
    return { ...db, sites, cached, ingestSeconds: 0, analyzers };
  }

  const reader = new FileTechDocsReader();
  const entities: Entity[] = corpora.map(c => {
    const entity = docsComponent(c, { title: c });
    reader.add(stringifyEntityRef(entity), {
      dir: sites.get(c)!.siteDir,
      siteName: c,
      pages: sites.get(c)!.pages,
    });
    return entity;
  });
  const started = Date.now();
  say(
    `ingesting ${corpora.join(', ')} (${[...sites.values()].reduce(
      (n, s) => n + s.pages.length,
      0,
    )} pages)`,
  );
  const progress = await ingest({
    knex: db.knex,
    entities,
    techdocs: reader,
    embedder,
    analyzers,
  });
  if (progress.errors.length > 0) {
    say(
      `ingestion reported ${
        progress.errors.length
      } errors, first: ${JSON.stringify(progress.errors[0])}`,
    );
  }
  say(`building HNSW index for ${embedder.modelId}`);
  await ensureVectorIndex(db.knex, embedder.modelId, embedder.dimension);
  say('building full-text baseline');
  await createFullTextBaseline(db.knex);
  await db.knex.raw('ANALYZE');
  const ingestSeconds = (Date.now() - started) / 1000;
  if (dataDir) {
    await db.knex.raw('CHECKPOINT');
    fs.writeFileSync(`${dataDir}.complete`, new Date().toISOString());
  }
  return { ...db, sites, progress, cached, ingestSeconds, analyzers };
}
