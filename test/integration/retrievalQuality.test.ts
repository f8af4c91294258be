/*
 * Retrieval-quality gate: the evaluation harness (test/eval) on a small real subset — the MkDocs
 * user guide (English) and the Pyvec docs (Czech) with their shared evaluation questions —
 * ingested by the real Ingester into Postgres + pgvector. Embeddings are the labelled lexical
 * hashing fallback (no semantic model is available offline), so these bars are about fusion
 * and keyword analysis, not semantic matching. Answers come from the extractive reference
 * model (test/eval/extractiveModel.ts), judged by test/eval/answerJudge.ts.
 */
import { HashingEmbedder } from '../../plugins/ask-docs-backend/src/embedding';
import { BuiltIndex, buildEvalIndex, evalAnalyzers } from '../eval/buildIndex';
import { loadEvalItems } from '../eval/evalItems';
import { extractiveModel } from '../eval/extractiveModel';
import { evaluate, ItemResult, productSettings } from '../eval/evaluate';
import { buildReport, EvalReport } from '../eval/report';

const CORPORA = ['mkdocs-docs-en', 'pyvec-docs-cs'];

/*
 * Measured on this subset (docs/evaluation.md): 10 of 12 unanswerable questions refused, 3 of 27
 * answerable ones wrongly refused, since the evidence decision no longer reads the question's
 * wording (decision record 0009, eighth round; 9 of 12 and 1 of 27 before). The bars leave one
 * item of slack each way, no more.
 */
const MIN_REFUSAL_ACCURACY = 9 / 12;
const MAX_FALSE_REFUSAL_RATE = 4 / 27;

describe('retrieval quality (MkDocs guide + Pyvec docs, hashing embedder)', () => {
  let index: BuiltIndex;
  let results: ItemResult[];
  let report: EvalReport;

  beforeAll(async () => {
    // The fallback as the plugin builds it: with the same language analyzers as keyword search.
    const analyzers = await evalAnalyzers();
    const embedder = new HashingEmbedder({ analyzers });
    index = await buildEvalIndex({ corpora: CORPORA, embedder, analyzers });
    const items = loadEvalItems().filter(i => CORPORA.includes(i.corpus));
    results = await evaluate({
      knex: index.knex,
      embedder,
      analyzers: index.analyzers,
      sites: index.sites,
      items,
      model: extractiveModel(analyzers),
    });
    report = buildReport(results, {
      embedder: {
        modelId: embedder.modelId,
        kind: embedder.kind,
        dimension: embedder.dimension,
        note: '',
      },
      corpora: CORPORA,
      product: productSettings(embedder),
      timings: {},
    });
  }, 280_000);

  afterAll(async () => {
    await index?.stop();
  });

  it('ingested both sites without errors and evaluated every question of their corpora', () => {
    expect(index.progress?.errors).toEqual([]);
    expect(report.items.answerable).toBeGreaterThanOrEqual(20);
    expect(report.items.unanswerable).toBeGreaterThanOrEqual(10);
    // The harness fuses the very lists retrieve() fuses: at the product's weights it reproduces
    // hybrid.
    expect(report.fusionReproductionMismatches).toEqual([]);
  });

  it('hybrid finds the gold page in the top 5 at least as often as either retriever alone', () => {
    const { hybrid, vector, keyword } = report.methods;
    // Ties are allowed: both reach every item a lexical method can reach on this subset (the
    // misses are cross-lingual questions, which no lexical signal can bridge).
    expect(hybrid.overall.recall['@5']).toBeGreaterThanOrEqual(
      vector.overall.recall['@5'],
    );
    expect(hybrid.overall.recall['@5']).toBeGreaterThanOrEqual(
      keyword.overall.recall['@5'],
    );
  });

  it('hybrid ranks the gold page higher than vector-only (MRR)', () => {
    const { hybrid, vector } = report.methods;
    expect(hybrid.overall.mrr).toBeGreaterThanOrEqual(vector.overall.mrr);
  });

  it('hybrid ranks the gold page at least as high as keyword-only (MRR)', () => {
    // Measured on this subset with the product's fusion weights for the hashing fallback
    // (vector 0.1, keyword 1): hybrid 0.917, keyword 0.907. Equal weights lose
    // (docs/evaluation.md).
    const { hybrid, keyword } = report.methods;
    expect(hybrid.overall.mrr).toBeGreaterThanOrEqual(keyword.overall.mrr);
  });

  it(`answers with the extractive reference model: no citation of a source that lacks the \
claim`, () => {
    const a = report.answers!;
    expect(a.answerable + a.unanswerable).toBe(results.length);
    // A model that quotes the block it cites can only be "unsupported" if labels, citation
    // matching or source selection map a citation to the wrong document.
    expect(a.judgedCitations).toBeGreaterThanOrEqual(15);
    expect(a.unsupportedCitations).toBe(0);
    // Measured with the fitted evidence decision (the default for this embedder): 10 of 27
    // correct (9 before its eighth round), 1 good answer with a wrong source, 2 of 12
    // unanswerable answered. One item of slack on each.
    expect(a.outcomes.correct).toBeGreaterThanOrEqual(9);
    expect(a.goodAnswerWrongSource).toBeLessThanOrEqual(2);
    expect(a.outcomes.answered_unanswerable).toBeLessThanOrEqual(3);
  });

  it('beats a Backstage-style Postgres full-text search on the same chunks', () => {
    const { hybrid } = report.methods;
    for (const [name, m] of Object.entries(report.methods)) {
      if (!name.startsWith('pg-fts')) continue;
      expect(hybrid.overall.recall['@5']).toBeGreaterThan(
        m.overall.recall['@5'],
      );
    }
  });

  it('refuses unanswerable questions and rarely refuses answerable ones', () => {
    expect(report.refusal.unanswerable.accuracy).toBeGreaterThanOrEqual(
      MIN_REFUSAL_ACCURACY,
    );
    expect(report.refusal.answerable.falseRefusalRate).toBeLessThanOrEqual(
      MAX_FALSE_REFUSAL_RATE,
    );
    // Out-of-domain questions share no vocabulary with either site: every one must be refused.
    const outOfDomain = results.filter(
      r => !r.answerable && r.kind === 'out-of-domain',
    );
    expect(outOfDomain.length).toBeGreaterThan(0);
    expect(outOfDomain.filter(r => !r.product.refused).map(r => r.id)).toEqual(
      [],
    );
  });
});
