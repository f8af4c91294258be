/*
 * Dumps, per evaluation question, the fused candidates of the product's hybrid retrieval with
 * the boosts off (score, coverage, section path, text, page), the question's query tokens and
 * their idf, so ranking changes can be swept offline (rankingSweep.ts) before one of them is
 * built into the retriever and measured on the product path with run.ts. From the root:
 *
 *   node -r @backstage/cli/config/nodeTransform.cjs test/eval/experiments/rankingDump.ts \
 *     [--sets items-train,items-dev] [--out test-results/eval/ranking-dump.json]
 *     [--candidates 40] [--product]
 *
 * --product keeps the product's fusion and boosts (the order the evidence features see), for
 * evidence experiments (evidenceSweep.ts) rather than ranking sweeps.
 */
import fs from 'fs';
import path from 'path';
import { HashingEmbedder } from '../../../plugins/ask-docs-backend/src/embedding';
import { resolveVisibility } from '../../../plugins/ask-docs-backend/src/permissions';
import { QuestionPipeline } from '../../../plugins/ask-docs-backend/src/service/QuestionPipeline';
import {
  builtPagePath,
  fakePermissionsService,
  userCredentials,
} from '../../src';
import { buildEvalIndex, corpusEntityRef, evalAnalyzers } from '../buildIndex';
import { loadAllEvalItems } from '../evalItems';
import { pageKeys, productSettings } from '../evaluate';
import { KnowledgeIndex } from '../../../plugins/ask-docs-backend/src/database/IndexReader';

async function main() {
  const argv = process.argv.slice(2);
  const arg = (flag: string, fallback: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 && argv[i + 1] ? argv[i + 1] : fallback;
  };
  const sets = arg('--sets', 'items-train,items-dev').split(',');
  const out = path.resolve(arg('--out', 'test-results/eval/ranking-dump.json'));
  // Deeper lists than the product's 40 let a sweep try other depths (and RRF constants).
  const depth = Number(arg('--candidates', '40'));
  const product = argv.includes('--product');
  if (sets.includes('items-test') || sets.includes('form-test'))
    throw new Error('the test split is not for sweeping: use run.ts once');
  const items = loadAllEvalItems().filter(i => sets.includes(i.set));
  const analyzers = await evalAnalyzers();
  const embedder = new HashingEmbedder({ analyzers });
  const corpora = [
    'postgresql-docs',
    'gimp-help-en',
    'gimp-help-cs',
    'pyvec-docs-cs',
    'mkdocs-docs-en',
  ];
  const index = await buildEvalIndex({
    corpora,
    embedder,
    analyzers,
    cache: true,
  });
  try {
    const pipeline = new QuestionPipeline({
      index: new KnowledgeIndex(index.knex),
      embedder,
      analyzers,
      model: undefined,
      retrieval: productSettings(embedder),
      answer: {},
    });
    const visibility = await resolveVisibility({
      permissions: fakePermissionsService(),
      credentials: userCredentials(),
    });
    const pageOf = await pageKeys(index.knex);
    const dump = [];
    for (const item of items) {
      const site = index.sites.get(item.corpus)!;
      const question = await pipeline.embed(pipeline.analyse(item.question));
      const r = await pipeline.retrieve(question, visibility, {
        settings: {
          k: 2 * depth,
          candidates: depth,
          thresholds: { minSimilarity: -1, minCoverage: 0 },
          evidenceModel: undefined,
          // Plain RRF order and scores (the sweep re-scores candidates itself), or the product's.
          ...(product
            ? {}
            : {
                fusion: 'rrf' as const,
                titleWeight: 0,
                phraseWeight: 0,
                releaseNotesPenalty: 0,
              }),
        },
      });
      dump.push({
        id: item.id,
        set: item.set,
        lang: item.lang,
        kind: item.kind,
        answerable: item.answerable,
        question: item.question,
        gold: item.gold.map(
          g =>
            `${corpusEntityRef(item.corpus)}|${builtPagePath(
              site.form,
              g.page,
            )}`,
        ),
        tokens: question.queryTokens,
        idf: Object.fromEntries(
          (r.keywordStatistics?.tokens ?? []).map(t => [t.token, t.idf]),
        ),
        corrections: r.corrections,
        candidates: r.chunks.map(c => ({
          id: c.chunkId,
          page: pageOf.get(c.chunkId) ?? `?|${c.chunkId}`,
          rrf: c.rrf,
          coverage: c.coverage,
          keywordScore: c.keywordScore,
          similarity: c.similarity,
          title: c.title,
          sectionPath: c.sectionPath,
          text: c.text,
        })),
      });
    }
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify(dump));
    process.stderr.write(`wrote ${dump.length} questions to ${out}\n`);
  } finally {
    await index.stop();
  }
}

main().catch(e => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
