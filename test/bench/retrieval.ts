/*
 * Retrieval and ingestion benchmark (a script, not a test). From the repository root:
 *
 *   node -r @backstage/cli/config/nodeTransform.cjs test/bench/retrieval.ts [--sizes 10000,100000]
 *     [--queries 20] [--skip-tiny] [--ingest-pages N] [--no-replaced]
 *     [--quality items-train,items-dev,shared-dev]
 *
 * Every number is reported against a baseline measured in the same run: filtered vs unfiltered
 * latency, HNSW vs exact kNN, tiny transformers model vs hashing ingestion, 100k vs 10k. Embedded
 * Postgres (PGlite, WASM) on loopback only; every loop is bounded by the inputs listed here.
 */
import { spawn } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { Knex } from 'knex';
import {
  HashingEmbedder,
  TransformersEmbedder,
  Embedder,
} from '../../plugins/ask-docs-backend/src/embedding';
// prettier-ignore
import {
  buildTinyBertModel,
} from '../../plugins/ask-docs-backend/src/embedding/__testUtils__/buildTinyBertModel';
import {
  resolveVisibility,
  Visibility,
} from '../../plugins/ask-docs-backend/src/permissions';
import {
  RetrievalMode,
  vectorSearch,
} from '../../plugins/ask-docs-backend/src/retrieval';
import {
  ensureVectorIndex,
  vectorIndexName,
} from '../../plugins/ask-docs-backend/src/database/vectorIndex';
import {
  IndexReader,
  KnowledgeIndex,
  vectorQuery,
} from '../../plugins/ask-docs-backend/src/database/IndexReader';
import {
  corpusSite,
  fakePermissionsService,
  ownerOnlyDecision,
  splitSiteAcrossEntities,
  StaticEntitySource,
  userCredentials,
} from '../src';
import { eachArgument } from '../src/cliArguments';
import {
  evalAnalyzers,
  ingest,
  startEvalDatabase as startDatabase,
} from '../eval/buildIndex';
import { EVAL_SETS, ITEMS_DIR, loadEvalItems } from '../eval/evalItems';
import { productSettings } from '../eval/evaluate';
import { EvalReport, renderBySet } from '../eval/report';
import {
  EmbeddedQuestion,
  QuestionPipeline,
} from '../../plugins/ask-docs-backend/src/service/QuestionPipeline';
import {
  Latency,
  bufferedShare,
  mb,
  prewarmIndex,
  ratio,
  relationSizes,
  rssOf,
  serverSettings,
  ServerSettings,
  tableBytes,
  timeEach,
} from './measure';
import {
  createRowPostings,
  documentFrequencies,
  misspell,
  postingsScanCandidates,
  ROW_POSTINGS,
  rowPostingsKeywordSearch,
} from './replacedQueries';
import { suggestCorrections } from '../../plugins/ask-docs-backend/src/retrieval/typo';
import {
  keywordSearch,
  keywordStatistics,
} from '../../plugins/ask-docs-backend/src/retrieval/keywordSearch';
// prettier-ignore
import {
  DatabaseAskDocsStore,
} from '../../plugins/ask-docs-backend/src/database/DatabaseAskDocsStore';
import {
  addSyntheticChunks,
  benchOwner,
  insertBenchEntities,
  sentencePool,
  SentencePool,
  withoutRowPostingIndexes,
} from './syntheticChunks';

const ENTITIES = 100;
/** Passes over the queries once the index is in shared buffers (steady state). */
const WARM_PASSES = 5;

/**
 * A database for one phase of the run. With ASK_DOCS_TEST_PG_URL (a native PostgreSQL with
 * pgvector, docs/evaluation.md) its public schema is emptied first, so phases do not see each
 * other's rows; otherwise an embedded server of its own.
 */
async function startEvalDatabase(options: { dataDir?: string } = {}) {
  const external = process.env.ASK_DOCS_TEST_PG_URL;
  if (external) {
    const admin = (await import('knex')).default({
      client: 'pg',
      connection: external,
    });
    try {
      await admin.raw('DROP SCHEMA IF EXISTS public CASCADE');
      await admin.raw('CREATE SCHEMA public');
    } finally {
      await admin.destroy();
    }
  }
  return startDatabase(options);
}

/** The group whose entities the filtered user sees: 1 of ENTITIES, i.e. ~1% of chunks. */
const FILTER_OWNER = 7;

/**
 * One size's pass over the training questions (the process's first at that size): p50 / p95,
 * the share of the index in shared buffers before it, where in the pass its slowest question
 * came, and the same questions timed again after the warm passes (only that compares).
 */
function trainingPass(size: SizePoint): string {
  const first = size.latency['hybrid/all/process'];
  if (!first) return '';
  const again = size.latency['hybrid/all/process/warm'];
  const ms = (l: Latency) => `${l.p50.toFixed(0)} / ${l.p95.toFixed(0)}`;
  const share = size.bufferedAtFirstPass;
  const slowest = first.slowest[0];
  const notes = [
    share === undefined
      ? ''
      : `${(share * 100).toFixed(0)} % of the index's pages in shared buffers`,
    slowest
      ? `slowest question ${slowest.at + 1} of the pass, ${slowest.ms} ms`
      : '',
  ].filter(Boolean);
  return (
    `${size.chunks}: ${ms(first)}` +
    (notes.length ? ` (${notes.join('; ')})` : '') +
    (again ? `, again after the warm passes ${ms(again)}` : '')
  );
}

/** A p95 cell: the figure, and with several passes the range of the passes' own p95. */
function withPassRange(latency: Latency): string {
  const p95s = (latency.passes ?? []).map(p => p.p95);
  if (p95s.length < 2) return latency.p95.toFixed(0);
  const range = `${Math.min(...p95s).toFixed(0)}–${Math.max(...p95s).toFixed(
    0,
  )}`;
  return `${latency.p95.toFixed(0)} (${range})`;
}

function parseArgs(argv: string[]) {
  const args = {
    sizes: [10_000, 100_000],
    queries: 20,
    /** Queries at sizes after the first, where one hybrid query takes seconds in WASM Postgres. */
    largeQueries: 8,
    /**
     * maintenance_work_mem for the HNSW builds that the measurements use. With the server default
     * (64MB) a 100k x 384 graph does not fit and the build leaves pgvector's fast path (it ran
     * for more than 15 minutes in WASM); the default is still measured at sizes up to 20k.
     */
    hnswMemory: '512MB',
    tiny: true,
    /**
     * Fill and time the replaced layout (one row per chunk and key) beside the product's: the
     * same-run baseline of decision record 0011. --no-replaced leaves it out, for sizes where
     * its rows (about 310 per chunk) would dominate the load and the buffers.
     */
    replaced: true,
    ingestPages: Infinity,
    /** Evaluation sets whose quality figures the report carries (--quality), none by default. */
    quality: [] as string[],
    out: path.resolve(__dirname, '../../test-results/bench'),
  };
  eachArgument(argv, (a, value) => {
    if (a === '--sizes') args.sizes = value().split(',').map(Number);
    else if (a === '--queries') args.queries = Number(value());
    else if (a === '--large-queries') args.largeQueries = Number(value());
    else if (a === '--skip-tiny') args.tiny = false;
    else if (a === '--no-replaced') args.replaced = false;
    else if (a === '--hnsw-memory') args.hnswMemory = value();
    else if (a === '--ingest-pages') args.ingestPages = Number(value());
    else if (a === '--out') args.out = path.resolve(value());
    else if (a === '--quality')
      args.quality = value().split(',').filter(Boolean);
    else throw new Error(`unknown argument ${a}`);
  });
  if (
    !args.sizes.every(n => Number.isInteger(n) && n > 0) ||
    args.sizes.some((n, i) => i > 0 && n <= args.sizes[i - 1])
  ) {
    throw new Error('--sizes must be increasing positive integers');
  }
  const unknownSets = args.quality.filter(
    x => !(EVAL_SETS as readonly string[]).includes(x),
  );
  if (unknownSets.length)
    throw new Error(
      `--quality: unknown sets ${unknownSets.join(
        ', ',
      )} (known: ${EVAL_SETS.join(', ')})`,
    );
  if (!(args.queries >= 1 && args.queries <= 200))
    throw new Error('--queries must be 1..200');
  if (!/^\d+(kB|MB|GB)$/.test(args.hnswMemory))
    throw new Error('--hnsw-memory must look like 512MB');
  return args;
}

const started = Date.now();
const log = (m: string) =>
  process.stderr.write(
    `[bench ${((Date.now() - started) / 1000).toFixed(0)}s] ${m}\n`,
  );

interface IngestionResult {
  embedder: string;
  pages: number;
  chunks: number;
  seconds: number;
  pagesPerSecond: number;
  chunksPerSecond: number;
  /** Time to embed every chunk text alone, outside ingestion. */
  embedOnlySeconds: number;
  errors: number;
}

/** The evaluation harness's figures for some sets, as the report carries them. */
interface QualityResult {
  command: string;
  /** Per set: hybrid ranking and the product path's refusals (the harness's bySet). */
  bySet: EvalReport['bySet'];
  /** Where the harness wrote its full report (items included). */
  file: string;
}

/** A path as the repository's root sees it: relative inside it, absolute outside. */
function inRepository(root: string, file: string): string {
  const relative = path.relative(root, file);
  return relative.startsWith('..') || path.isAbsolute(relative)
    ? file
    : relative;
}

/**
 * Runs the evaluation harness (`test/eval/run.ts --quick`) on the given sets in a child process,
 * on its own embedded database: the harness ingests the shared corpora, and pointing it at the
 * benchmark's server (ASK_DOCS_TEST_PG_URL) would mix its chunks with the synthetic ones.
 */
async function measureQuality(
  sets: string[],
  outDir: string,
): Promise<QualityResult> {
  const name = 'bench-quality';
  const root = path.resolve(__dirname, '../..');
  const argv = [
    '-r',
    '@backstage/cli/config/nodeTransform.cjs',
    inRepository(root, path.resolve(__dirname, '../eval/run.ts')),
    '--quick',
    '--sets',
    sets.join(','),
    '--name',
    name,
    '--out',
    inRepository(root, outDir),
  ];
  const env = { ...process.env };
  delete env.ASK_DOCS_TEST_PG_URL;
  const exit = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, argv, {
      cwd: root,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      resolve(code === 0 ? '' : signal ? `signal ${signal}` : `code ${code}`),
    );
  });
  const command = `node ${argv.join(' ')}`;
  if (exit) throw new Error(`${command} ended with ${exit}`);
  const file = path.join(outDir, `${name}.json`);
  const { report } = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    report: EvalReport;
  };
  return { command, bySet: report.bySet, file };
}

async function measureIngestion(
  embedder: Embedder,
  pagesLimit: number,
  keep: boolean,
): Promise<{
  result: IngestionResult;
  db?: Awaited<ReturnType<typeof startEvalDatabase>>;
}> {
  const site = await corpusSite('postgresql-docs');
  const limited = { ...site, pages: site.pages.slice(0, pagesLimit) };
  const split = splitSiteAcrossEntities(limited, ENTITIES, {
    prefix: 'pgdocs',
  });
  const analyzers = await evalAnalyzers();
  const db = await startEvalDatabase();
  log(
    `ingesting ${limited.pages.length} PostgreSQL manual pages over ${ENTITIES} entities ` +
      `with ${embedder.modelId}`,
  );
  const t0 = performance.now();
  const progress = await ingest({
    knex: db.knex,
    entities: new StaticEntitySource(split.entities),
    techdocs: split.reader,
    embedder,
    analyzers,
  });
  const seconds = (performance.now() - t0) / 1000;
  const texts: Array<{ section_path: string; text: string }> = await db
    .knex('ask_docs_chunks')
    .select('section_path', 'text');
  const t1 = performance.now();
  for (let i = 0; i < texts.length; i += 64) {
    await embedder.embedPassages(
      texts.slice(i, i + 64).map(t => `${t.section_path}\n${t.text}`),
    );
  }
  const embedOnlySeconds = (performance.now() - t1) / 1000;
  // One catalog document per entity.
  const techdocsPages = progress.pagesDone - split.entities.length;
  const result: IngestionResult = {
    embedder: embedder.modelId,
    pages: techdocsPages,
    chunks: progress.chunksWritten,
    seconds,
    pagesPerSecond: techdocsPages / seconds,
    chunksPerSecond: progress.chunksWritten / seconds,
    embedOnlySeconds,
    errors: progress.errors.length,
  };
  log(
    `  ${result.pages} pages, ${result.chunks} chunks in ${seconds.toFixed(
      1,
    )}s (${result.pagesPerSecond.toFixed(1)} pages/s)`,
  );
  if (!keep) {
    await db.stop();
    return { result };
  }
  return { result, db };
}

/** A question as the product's pipeline analysed and embedded it. */
type Query = EmbeddedQuestion;

interface SizePoint {
  chunks: number;
  visibleFiltered: number;
  /**
   * Cumulative over all loads up to this size. writeSeconds includes the product's posting
   * lists and the replaced layout's rows; indexSeconds rebuilds the rows' indexes.
   */
  load: {
    generateSeconds: number;
    writeSeconds: number;
    indexSeconds: number;
    termRows: number;
  };
  /** Build with the server's maintenance_work_mem (undefined: not run at this size). */
  hnswBuildDefaultSeconds?: number;
  /** Build with --hnsw-memory; the index the measurements use. */
  hnswBuildSeconds: number;
  hnswMemory: string;
  hnswUsed: Record<string, boolean>;
  /** Share of the knowledge index's pages in shared buffers before the first pass. */
  bufferedAtFirstPass?: number;
  latency: Record<string, Latency>;
  /** recall: HNSW forced; productRecall: the product's 'auto' (exact when few are visible). */
  ann: Record<
    string,
    {
      k: number;
      recall: number;
      minRecall: number;
      productRecall: number;
      hnsw: Latency;
      exact: Latency;
    }
  >;
  /** The product's query vs the shape it replaced (replacedQueries.ts), same data. */
  replaced: Record<
    string,
    { queries: number; product: Latency; replaced: Latency }
  >;
  /** How far the product's shortcuts move results, per visibility (1 = identical). */
  agreement: Record<
    string,
    {
      exactTokens: number;
      dfEqualToPostingsCount: number;
      keywordTop10Overlap: number;
    }
  >;
  /** Knowledge-index bytes (all ask_docs_ tables with indexes and TOAST) per chunk. */
  bytesPerChunk: number;
  /** The keyword index alone: posting lists and key dictionary vs the replaced row postings. */
  keywordBytesPerChunk: { lists: number; rows: number };
  memory: {
    benchRss: number;
    serverRss?: number;
    tables: Record<string, number>;
    indexes: Record<string, number>;
  };
}

async function planUsesIndex(
  knex: Knex,
  visibility: Visibility,
  modelId: string,
  vector: number[],
  strategy: 'auto' | 'index',
) {
  const indexName = vectorIndexName(modelId, vector.length);
  return knex.transaction(async trx => {
    if (strategy === 'index') await trx.raw('SET LOCAL enable_seqscan = off');
    const sql = vectorQuery(trx, visibility, {
      modelId,
      queryVector: vector,
      k: 10,
    }).toString();
    const plan = (await trx.raw(`EXPLAIN ${sql}`)).rows
      .map((r: Record<string, string>) => r['QUERY PLAN'])
      .join('\n');
    return plan.includes(indexName);
  });
}

async function measureSize(options: {
  knex: Knex;
  serverPid?: number;
  embedder: HashingEmbedder;
  /** The product's question pipeline over `knex` (retrieval with the product's settings). */
  pipeline: QuestionPipeline;
  queries: Query[];
  /** Other questions on the same corpus that warm the process before the timed ones. */
  warmupQueries: Query[];
  /** Time the replaced layout's query shapes (bench_row_postings was filled). */
  replacedLayout: boolean;
  visibility: { all: Visibility; filtered: Visibility };
  chunks: number;
  load: SizePoint['load'];
  /** Retrieval modes timed (the ANN comparison always runs). */
  modes: RetrievalMode[];
  hnswMemory: string;
}): Promise<SizePoint> {
  const { knex, embedder, queries, visibility, modes, pipeline } = options;
  const modelId = embedder.modelId;
  const dropIndex = () =>
    knex.raw(
      `DROP INDEX IF EXISTS ${vectorIndexName(modelId, embedder.dimension)}`,
    );
  await dropIndex();
  // What the Ingester does after a run that changed the index.
  await new DatabaseAskDocsStore(knex).refreshIndexStatistics();
  let hnswBuildDefaultSeconds: number | undefined;
  if (options.chunks <= 20_000) {
    log(
      `  building HNSW over ${options.chunks} vectors (${embedder.dimension} dimensions), ` +
        `Postgres' default 64MB`,
    );
    const t0 = performance.now();
    await ensureVectorIndex(knex, modelId, embedder.dimension, {
      buildMemory: '64MB',
    });
    hnswBuildDefaultSeconds = (performance.now() - t0) / 1000;
    log(`  built in ${hnswBuildDefaultSeconds.toFixed(1)}s`);
    await dropIndex();
  }
  log(
    `  building HNSW over ${options.chunks} vectors ` +
      `with maintenance_work_mem ${options.hnswMemory}`,
  );
  const t0 = performance.now();
  // The product's own index builder (its default is 512MB).
  await ensureVectorIndex(knex, modelId, embedder.dimension, {
    buildMemory: options.hnswMemory,
  });
  const hnswBuildSeconds = (performance.now() - t0) / 1000;
  log(`  built in ${hnswBuildSeconds.toFixed(1)}s`);
  await knex.raw('ANALYZE');

  const visibleFiltered = Number(
    (
      await knex.raw(
        'SELECT count(*)::int AS n FROM ask_docs_chunks c' +
          ' JOIN ask_docs_entities e USING (entity_ref) WHERE ? = ANY(e.owners)',
        [benchOwner(FILTER_OWNER)],
      )
    ).rows[0].n,
  );
  const hnswUsed: Record<string, boolean> = {};
  for (const [name, v] of Object.entries(visibility)) {
    hnswUsed[`${name}/auto`] = await planUsesIndex(
      knex,
      v,
      modelId,
      queries[0].queryVector,
      'auto',
    );
    hnswUsed[`${name}/index`] = await planUsesIndex(
      knex,
      v,
      modelId,
      queries[0].queryVector,
      'index',
    );
  }

  // The process first answers other questions of the same corpus, so the rows below time the
  // index's pages and not Node compiling the retrieval code: a fresh process's first pass is
  // 20-35 ms slower at p95 with every page in shared buffers (decision record 0011, seventh
  // round). That pass is kept too ('<mode>/<visibility>/process'; the report shows hybrid/all).
  const latency: Record<string, Latency> = {};
  const timeModes = async (
    phase: string,
    inputs: Query[],
    timing: { passes: number; warmup: number },
  ) => {
    for (const [name, v] of Object.entries(visibility)) {
      for (const mode of modes) {
        log(`  latency ${mode} / ${name}${phase}`);
        latency[`${mode}/${name}${phase}`] = await timeEach(
          inputs,
          q => pipeline.retrieve(q, v, { mode }),
          timing,
        );
      }
    }
  };
  const bufferedAtFirstPass = await bufferedShare(knex);
  await timeModes('/process', options.warmupQueries, { passes: 1, warmup: 0 });
  // Then as loaded (one pass, no question seen before: first touch of their pages), then with
  // the index in shared buffers (steady state: WARM_PASSES passes over the same queries).
  await timeModes('', queries, { passes: 1, warmup: 0 });
  if (await prewarmIndex(knex)) {
    await timeModes('/warm', queries, { passes: WARM_PASSES, warmup: 2 });
    // The training questions again, warm: their first pass is only comparable with this one
    // (every mode and visibility are kept in the JSON; the report shows hybrid/all).
    await timeModes('/process/warm', options.warmupQueries, {
      passes: 1,
      warmup: 0,
    });
  }

  const replaced: SizePoint['replaced'] = {};
  const agreement: SizePoint['agreement'] = {};
  const typos = queries.flatMap(q => misspell(q.queryTokens) ?? []);
  for (const [name, v] of Object.entries(
    options.replacedLayout ? visibility : {},
  )) {
    log(`  replaced query shapes / ${name}`);
    // df from the lists' counts (product) vs counted over the visible row postings.
    let tokens = 0;
    let sameDf = 0;
    for (const q of queries) {
      const product = await keywordStatistics({
        reader: new IndexReader(knex, v),
        queryTokens: q.queryTokens,
      });
      const counted = new Map(
        (await documentFrequencies(knex, v, q.queryTokens)).map(r => [
          Number(r.tok),
          Number(r.df),
        ]),
      );
      product.tokens.forEach((t, i) => {
        if (t.match !== 'exact') return;
        tokens++;
        if (t.df === counted.get(i)) sameDf++;
      });
    }
    replaced[`document frequencies/${name}`] = {
      queries: queries.length,
      product: await timeEach(queries, q =>
        keywordStatistics({
          reader: new IndexReader(knex, v),
          queryTokens: q.queryTokens,
        }),
      ),
      replaced: await timeEach(queries, q =>
        documentFrequencies(knex, v, q.queryTokens),
      ),
    };
    // Keyword ranking from the lists (product) vs BM25 in SQL over every row posting.
    const keyword = (q: Query) =>
      keywordSearch({
        reader: new IndexReader(knex, v),
        queryTokens: q.queryTokens,
        limit: 40,
      });
    const rowsSearch = async (q: Query) =>
      rowPostingsKeywordSearch(
        knex,
        v,
        q.queryTokens,
        await keywordStatistics({
          reader: new IndexReader(knex, v),
          queryTokens: q.queryTokens,
        }),
        40,
      );
    let overlap = 0;
    for (const q of queries) {
      const all = (await rowsSearch(q)).slice(0, 10);
      const top = new Set(
        (await keyword(q)).hits.slice(0, 10).map(h => h.chunkId),
      );
      overlap +=
        all.length === 0
          ? 1
          : all.filter(id => top.has(id)).length / all.length;
    }
    replaced[`keyword candidates/${name}`] = {
      queries: queries.length,
      product: await timeEach(queries, q => keyword(q)),
      replaced: await timeEach(queries, q => rowsSearch(q)),
    };
    agreement[name] = {
      exactTokens: tokens,
      dfEqualToPostingsCount: tokens === 0 ? 1 : sameDf / tokens,
      keywordTop10Overlap: overlap / queries.length,
    };
    replaced[`spelling candidates/${name}`] = {
      queries: typos.length,
      product: await timeEach(typos, t =>
        suggestCorrections({
          reader: new IndexReader(knex, v),
          queryTokens: [t],
        }),
      ),
      replaced: await timeEach(typos, t =>
        postingsScanCandidates(knex, v, t.token, t.token.length <= 6 ? 1 : 2),
      ),
    };
  }

  const ann: SizePoint['ann'] = {};
  for (const [name, v] of Object.entries(visibility)) {
    for (const k of [10, 40]) {
      log(`  ANN recall@${k} / ${name}`);
      const recalls: number[] = [];
      const productRecalls: number[] = [];
      // The product passes the visible chunk count: 'auto' searches exactly when few are visible.
      const { visibleChunks } = await keywordStatistics({
        reader: new IndexReader(knex, v),
        queryTokens: [],
      });
      const search = (q: Query, strategy: 'index' | 'exact' | 'auto') =>
        vectorSearch({
          reader: new IndexReader(knex, v),
          modelId,
          queryVector: q.queryVector,
          k,
          strategy,
          visibleChunks,
        });
      const recall = (exact: string[], found: Set<string>) =>
        exact.length === 0
          ? 1
          : exact.filter(id => found.has(id)).length / exact.length;
      for (const q of queries) {
        const exact = (await search(q, 'exact')).map(h => h.chunkId);
        recalls.push(
          recall(
            exact,
            new Set((await search(q, 'index')).map(h => h.chunkId)),
          ),
        );
        productRecalls.push(
          recall(exact, new Set((await search(q, 'auto')).map(h => h.chunkId))),
        );
      }
      ann[`${name}@${k}`] = {
        k,
        recall: recalls.reduce((a, b) => a + b, 0) / recalls.length,
        minRecall: Math.min(...recalls),
        productRecall:
          productRecalls.reduce((a, b) => a + b, 0) / productRecalls.length,
        hnsw: await timeEach(queries, q => search(q, 'index')),
        exact: await timeEach(queries, q => search(q, 'exact')),
      };
    }
  }
  const sizes = await relationSizes(knex);
  return {
    chunks: options.chunks,
    visibleFiltered,
    load: options.load,
    hnswBuildDefaultSeconds,
    hnswBuildSeconds,
    hnswMemory: options.hnswMemory,
    hnswUsed,
    bufferedAtFirstPass,
    latency,
    ann,
    replaced,
    agreement,
    bytesPerChunk:
      Object.values(sizes.tables).reduce((a, b) => a + b, 0) / options.chunks,
    keywordBytesPerChunk: {
      lists:
        ((sizes.tables.ask_docs_postings ?? 0) +
          (sizes.tables.ask_docs_keys ?? 0)) /
        options.chunks,
      rows: (await tableBytes(knex, ROW_POSTINGS)) / options.chunks,
    },
    memory: {
      benchRss: process.memoryUsage().rss,
      serverRss: options.serverPid ? rssOf(options.serverPid) : undefined,
      ...sizes,
    },
  };
}

function render(report: {
  ingestion: IngestionResult[];
  sizes: SizePoint[];
  baselineRss: { bench: number; server?: number };
  embedder: string;
  server: ServerSettings;
  totalSeconds: number;
}): string {
  const out: string[] = [];
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  // Column names as one 'a | b | c' string: a table's header reads as it renders.
  const head = (columns: string) => {
    const cells = columns.split(' | ');
    return [row(cells), row(cells.map(() => '---'))].join('\n');
  };
  const { version, pgvector, sharedBuffers } = report.server;
  out.push(
    `Server: ${version}; pgvector ${pgvector}; shared_buffers ${sharedBuffers}.\n`,
  );

  out.push(
    '### Ingestion throughput (PostgreSQL manual, split over 100 entities)',
  );
  out.push('');
  out.push(
    head(
      'embedder | pages | chunks | seconds | pages/s | chunks/s | embedding alone (s) | ' +
        'vs hashing (pages/s)',
    ),
  );
  const base = report.ingestion[0];
  for (const r of report.ingestion) {
    out.push(
      row([
        r.embedder,
        String(r.pages),
        String(r.chunks),
        r.seconds.toFixed(1),
        r.pagesPerSecond.toFixed(1),
        r.chunksPerSecond.toFixed(1),
        r.embedOnlySeconds.toFixed(1),
        ratio(r.pagesPerSecond, base.pagesPerSecond),
      ]),
    );
  }
  out.push('');
  out.push(
    '### Retrieval latency (product path: k=8, 40 candidates per retriever; ' +
      `embedder ${report.embedder})`,
  );
  out.push('');
  out.push(
    `Queries: ${report.sizes
      .map(s => `${s.latency['hybrid/all'].n} at ${s.chunks}`)
      .join(', ')} (PostgreSQL questions of the shared evaluation set).`,
  );
  out.push('');
  out.push(
    'Each question once right after the load, its pages touched for the first time (those ' +
      "not in shared buffers come from the operating system's cache); then, where the server " +
      'has pg_prewarm, after it loaded the knowledge index into shared buffers, as on a server ' +
      `that has been answering questions: ${WARM_PASSES} passes over the same questions, ` +
      "percentiles over all their timings, and in brackets the range of the passes' own p95.",
  );
  out.push('');
  out.push(
    head(
      'chunks | mode | all p50 ms | all p95 ms | 1% filter p50 ms | 1% filter p95 ms | ' +
        `filtered / all (p50) | vs ${report.sizes[0].chunks} (all p50)`,
    ),
  );
  for (const s of report.sizes) {
    for (const [mode, phase] of ['hybrid', 'vector', 'keyword'].flatMap(m => [
      [m, ''],
      [m, '/warm'],
    ])) {
      const a = s.latency[`${mode}/all${phase}`];
      const f = s.latency[`${mode}/filtered${phase}`];
      const first = report.sizes[0].latency[`${mode}/all${phase}`];
      if (!a || !f || !first) continue;
      out.push(
        row([
          String(s.chunks),
          phase ? `${mode}, index in shared buffers` : mode,
          a.p50.toFixed(0),
          withPassRange(a),
          f.p50.toFixed(0),
          withPassRange(f),
          ratio(f.p50, a.p50),
          ratio(a.p50, first.p50),
        ]),
      );
    }
  }
  out.push('');
  out.push(
    "Before the first row, each size's process answered the repository's training questions " +
      'on the same manual once per mode and visibility (none of them timed later), so the rows ' +
      "time the index's pages, not Node compiling the retrieval code. That pass, hybrid and " +
      'everything visible (p50 / p95 ms; the first size is a new process): ' +
      report.sizes.map(trainingPass).filter(Boolean).join(', ') +
      '.',
  );
  out.push('');
  out.push(
    '### Filtered ANN: HNSW (iterative scan, relaxed order) vs exact kNN on the same filter',
  );
  out.push('');
  out.push(
    head(
      'chunks | filter | k | recall (mean) | recall (min) | product path recall | ' +
        'HNSW p50 ms | exact p50 ms | HNSW / exact (p50) | planner uses HNSW (auto)',
    ),
  );
  for (const s of report.sizes) {
    for (const [key, a] of Object.entries(s.ann)) {
      const filter = key.split('@')[0];
      out.push(
        row([
          String(s.chunks),
          filter === 'all' ? 'none' : `1% (${s.visibleFiltered} chunks)`,
          String(a.k),
          a.recall.toFixed(3),
          a.minRecall.toFixed(2),
          a.productRecall.toFixed(3),
          a.hnsw.p50.toFixed(1),
          a.exact.p50.toFixed(1),
          ratio(a.hnsw.p50, a.exact.p50),
          String(s.hnswUsed[`${filter}/auto`]),
        ]),
      );
    }
  }
  out.push('');
  out.push(
    '### Replaced layout and query shapes (row postings up to migration 0005), same data and run',
  );
  out.push('');
  out.push(
    'The replaced layout is one row per (chunk, key), as ask_docs_terms had them up to ' +
      'migration 0005, in a bench-only table filled with the same keys. Document frequencies: ' +
      "`keywordStatistics` from the posting lists' counts (product) vs df counted over the " +
      'visible row postings (replaced). Keyword candidates: `keywordSearch` scoring the ' +
      'decoded lists (product) vs BM25 in SQL over every visible row posting (replaced). ' +
      'Spelling: the full `suggestCorrections` on the key dictionary (product) vs the ' +
      'candidate query alone on the row postings (replaced).',
  );
  out.push('');
  out.push(
    head(
      'chunks | query | filter | queries | product p50 ms | replaced p50 ms | ' +
        'product / replaced (p50)',
    ),
  );
  for (const s of report.sizes) {
    for (const [key, r] of Object.entries(s.replaced ?? {})) {
      const [query, filter] = key.split('/');
      out.push(
        row([
          String(s.chunks),
          query,
          filter === 'all' ? 'none' : '1%',
          String(r.queries),
          r.product.p50.toFixed(1),
          r.replaced.p50.toFixed(1),
          ratio(r.product.p50, r.replaced.p50),
        ]),
      );
    }
  }
  out.push('');
  out.push('### What the shortcuts change (1 = identical)');
  out.push('');
  out.push(
    head(
      'chunks | filter | exact tokens | df equal to the postings count | ' +
        'keyword top-10 overlap with the row-postings scoring | index bytes per chunk | ' +
        'keyword index bytes per chunk: lists / replaced rows',
    ),
  );
  for (const s of report.sizes) {
    for (const [filter, a] of Object.entries(s.agreement)) {
      out.push(
        row([
          String(s.chunks),
          filter === 'all' ? 'none' : '1%',
          String(a.exactTokens),
          a.dfEqualToPostingsCount.toFixed(3),
          a.keywordTop10Overlap.toFixed(3),
          s.bytesPerChunk.toFixed(0),
          `${s.keywordBytesPerChunk.lists.toFixed(
            0,
          )} / ${s.keywordBytesPerChunk.rows.toFixed(0)}`,
        ]),
      );
    }
  }
  // Also without the replaced layout (--no-replaced), where the table above has no rows.
  out.push('');
  out.push(
    'Bytes per chunk, all knowledge-index tables with indexes and TOAST: ' +
      report.sizes
        .map(s => `${s.chunks}: ${s.bytesPerChunk.toFixed(0)}`)
        .join(', ') +
      '.',
  );
  out.push('');
  out.push('### Build, load and memory');
  out.push('');
  out.push(
    head(
      'chunks | postings | generate s | insert s | row-postings index s | ' +
        'HNSW build s (64MB default) | HNSW build s (raised) | raised vs default | ' +
        'build vs first | chunks+lists+embeddings | HNSW index | server RSS | ' +
        'server RSS vs empty | bench RSS',
    ),
  );
  for (const s of report.sizes) {
    const t = s.memory.tables;
    const data =
      (t.ask_docs_chunks ?? 0) +
      (t.ask_docs_postings ?? 0) +
      (t.ask_docs_keys ?? 0) +
      (t.ask_docs_embeddings ?? 0);
    const hnsw = Object.entries(s.memory.indexes).find(([n]) =>
      n.startsWith('ask_docs_emb_hnsw_'),
    )?.[1];
    out.push(
      row([
        String(s.chunks),
        String(s.load.termRows),
        s.load.generateSeconds.toFixed(1),
        s.load.writeSeconds.toFixed(1),
        s.load.indexSeconds.toFixed(1),
        s.hnswBuildDefaultSeconds === undefined
          ? 'not run'
          : s.hnswBuildDefaultSeconds.toFixed(1),
        `${s.hnswBuildSeconds.toFixed(1)} (${s.hnswMemory})`,
        s.hnswBuildDefaultSeconds === undefined
          ? 'n/a'
          : ratio(s.hnswBuildSeconds, s.hnswBuildDefaultSeconds),
        ratio(s.hnswBuildSeconds, report.sizes[0].hnswBuildSeconds),
        mb(data),
        mb(hnsw),
        mb(s.memory.serverRss),
        s.memory.serverRss && report.baselineRss.server
          ? ratio(s.memory.serverRss, report.baselineRss.server)
          : 'n/a',
        mb(s.memory.benchRss),
      ]),
    );
  }
  out.push('');
  out.push(`Total ${report.totalSeconds.toFixed(0)}s.`);
  return out.join('\n');
}

/** The quality section: the harness's table by set and language. */
function renderQuality(quality: QualityResult): string[] {
  return [
    `### Quality (evaluation harness: \`${quality.command}\`)`,
    '',
    renderBySet(quality.bySet),
    '',
    `The harness's full report: ${quality.file}.`,
  ];
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  // The fallback as the plugin builds it (v2, with the language analyzers).
  const hashing = new HashingEmbedder({ analyzers: await evalAnalyzers() });
  const ingestion: IngestionResult[] = [];

  // 1. Ingestion throughput, hashing then the tiny transformers model, same pages.
  const first = await measureIngestion(hashing, args.ingestPages, true);
  ingestion.push(first.result);
  const pool: SentencePool = await sentencePool(first.db!.knex);
  await first.db!.stop();
  if (args.tiny) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ask-docs-bench-model-'));
    try {
      const tiny = await buildTinyBertModel(dir, { modelMaxLength: 512 });
      const embedder = await TransformersEmbedder.load({
        modelId: tiny.modelId,
        localModelPath: tiny.localModelPath,
        maxTokens: 512,
      });
      ingestion.push(
        (await measureIngestion(embedder, args.ingestPages, false)).result,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  // 2. Synthetic corpus of growing size in one on-disk database (100k chunks exceed what an
  // in-memory WASM heap should hold).
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ask-docs-bench-db-'));
  const file = path.join(args.out, 'retrieval.json');
  const db = await startEvalDatabase({ dataDir });
  // An interrupted run must not leave a busy WASM server (it cannot react to SIGTERM while an
  // index build runs) or gigabytes of data behind.
  const abort = () => {
    if (db.pid) {
      try {
        process.kill(db.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(130);
  };
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);
  try {
    const baselineRss = {
      bench: process.memoryUsage().rss,
      server: db.pid ? rssOf(db.pid) : undefined,
    };
    const analyzers = await evalAnalyzers();
    await insertBenchEntities(db.knex, ENTITIES);
    await db
      .knex('ask_docs_models')
      .insert({
        model_id: hashing.modelId,
        dimension: hashing.dimension,
        kind: hashing.kind,
      })
      .onConflict('model_id')
      .ignore();
    const questions = loadEvalItems({
      files: ['pg.dev.jsonl', 'unanswerable-en.dev.jsonl'],
    })
      .filter(i => i.corpus === 'postgresql-docs')
      .slice(0, args.queries);
    const pipeline = new QuestionPipeline({
      index: new KnowledgeIndex(db.knex),
      embedder: hashing,
      analyzers,
      model: undefined,
      retrieval: productSettings(hashing),
      answer: {},
    });
    const queries: Query[] = [];
    for (const q of questions)
      queries.push(await pipeline.embed(pipeline.analyse(q.question)));
    // The repository's training questions on the same manual: none of them is timed.
    const warmupQueries: Query[] = [];
    for (const q of loadEvalItems({
      dir: ITEMS_DIR,
      files: ['pg.jsonl', 'unanswerable-en.jsonl'],
    })
      .filter(i => i.corpus === 'postgresql-docs' && i.set === 'items-train')
      .slice(0, args.queries))
      warmupQueries.push(await pipeline.embed(pipeline.analyse(q.question)));
    const permissions = (decision?: ReturnType<typeof ownerOnlyDecision>) =>
      resolveVisibility({
        permissions: fakePermissionsService(decision),
        credentials: userCredentials(),
      });
    const visibility = {
      all: await permissions(),
      filtered: await permissions(
        ownerOnlyDecision([benchOwner(FILTER_OWNER)]),
      ),
    };

    const sizes: SizePoint[] = [];
    let have = 0;
    for (const size of args.sizes) {
      log(`synthetic corpus: adding chunks ${have}..${size}`);
      // Adding rows one by one to an existing HNSW graph is much slower than building it once.
      await db.knex.raw(
        `DROP INDEX IF EXISTS ${vectorIndexName(
          hashing.modelId,
          hashing.dimension,
        )}`,
      );
      let logged = 0;
      const add = () =>
        addSyntheticChunks({
          knex: db.knex,
          pool,
          embedder: hashing,
          analyzers,
          entities: ENTITIES,
          from: have,
          to: size,
          rowPostings: args.replaced,
          onProgress: done => {
            if (Math.floor(done / 10_000) > logged) {
              logged = Math.floor(done / 10_000);
              log(`  ${have + done} chunks`);
            }
          },
        });
      if (args.replaced) await createRowPostings(db.knex);
      const { result: load, rebuildSeconds } = args.replaced
        ? await withoutRowPostingIndexes(db.knex, add)
        : { result: await add(), rebuildSeconds: 0 };
      log(
        `  loaded; row-postings indexes rebuilt in ${rebuildSeconds.toFixed(
          1,
        )}s`,
      );
      have = size;
      const previous = sizes[sizes.length - 1]?.load;
      sizes.push(
        await measureSize({
          knex: db.knex,
          serverPid: db.pid,
          embedder: hashing,
          pipeline,
          queries:
            sizes.length === 0 ? queries : queries.slice(0, args.largeQueries),
          warmupQueries,
          replacedLayout: args.replaced,
          modes:
            sizes.length === 0 ? ['hybrid', 'vector', 'keyword'] : ['hybrid'],
          hnswMemory: args.hnswMemory,
          visibility,
          chunks: size,
          load: {
            generateSeconds:
              load.generateMs / 1000 + (previous?.generateSeconds ?? 0),
            writeSeconds: load.writeMs / 1000 + (previous?.writeSeconds ?? 0),
            indexSeconds: rebuildSeconds + (previous?.indexSeconds ?? 0),
            termRows: load.terms + (previous?.termRows ?? 0),
          },
        }),
      );
    }
    const report = {
      embedder: `${hashing.modelId} (lexical hashing fallback)`,
      // The figures depend on these; decision record 0011 names them with each table.
      server: await serverSettings(db.knex),
      ingestion,
      sizes,
      baselineRss,
      totalSeconds: (Date.now() - started) / 1000,
    };
    fs.mkdirSync(args.out, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(report, null, 2));
    process.stdout.write(`${render(report)}\n`);
    log(`wrote ${file}`);
  } finally {
    await db.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  // After the sizes are saved and the bench's database is stopped: a failing harness loses
  // nothing, and the two databases never hold memory at once.
  if (args.quality.length) {
    const quality = await measureQuality(args.quality, args.out);
    const report = JSON.parse(fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(file, JSON.stringify({ ...report, quality }, null, 2));
    process.stdout.write(`${renderQuality(quality).join('\n')}\n`);
    log(`added the evaluation's figures to ${file}`);
  }
}

main().catch(e => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
