/*
 * Runs every evaluation question through each retriever over one index and scores the pages
 * it returns. Ranking is measured with the relevance filter off (so the retrievers' orders are
 * compared as such); refusal is measured separately, on the exact product path.
 */
import { Knex } from 'knex';
import {
  AnswerOptions,
  ChatModel,
} from '../../plugins/ask-docs-backend/src/answer';
import { ConfigReader } from '@backstage/config';
import {
  Embedder,
  Reranker,
} from '../../plugins/ask-docs-backend/src/embedding';
import {
  QuestionPipeline,
  RetrievalSettings,
} from '../../plugins/ask-docs-backend/src/service/QuestionPipeline';
import { readRetrievalSettings } from '../../plugins/ask-docs-backend/src/settings';
import { Analyzers } from '../../plugins/ask-docs-backend/src/language';
import {
  resolveVisibility,
  Visibility,
} from '../../plugins/ask-docs-backend/src/permissions';
import {
  reciprocalRankFusion,
  RelevanceThresholds,
  RetrievalResult,
  RetrievalMode,
  vectorSearch,
} from '../../plugins/ask-docs-backend/src/retrieval';
import {
  builtPagePath,
  CorpusSite,
  fakePermissionsService,
  userCredentials,
} from '../src';
import { AnswerJudgement, judgeAnswer } from './answerJudge';
import { corpusEntityRef } from './buildIndex';
import { EvalItem } from './evalItems';
import { firstGoldRank, MRR_DEPTH, rankPages } from './metrics';
import { FULL_TEXT_VARIANTS, fullTextSearch } from './pgFullText';
import {
  IndexReader,
  KnowledgeIndex,
} from '../../plugins/ask-docs-backend/src/database/IndexReader';

export const RETRIEVER_MODES: RetrievalMode[] = ['hybrid', 'vector', 'keyword'];
/** Diagnostic: the vector retriever's list without the HNSW approximation. */
export const EXACT_VECTOR = 'vector (exact kNN)';
export const METHODS: string[] = [
  ...RETRIEVER_MODES,
  EXACT_VECTOR,
  ...FULL_TEXT_VARIANTS.map(v => v.name),
];

/**
 * The product's retrieval settings, as the plugin reads them from a config without overrides
 * (or with an explicit evidence decision of decision record 0009).
 */
export type ProductSettings = RetrievalSettings;
export function productSettings(
  embedder: Pick<Embedder, 'modelId' | 'kind'>,
  evidenceDecision?: 'thresholds' | 'fitted',
): ProductSettings {
  const config = new ConfigReader({
    askDocs: { retrieval: evidenceDecision ? { evidenceDecision } : {} },
  });
  return readRetrievalSettings(config, embedder);
}

/** Evidence the filter passes nothing on: any chunk meets a threshold. */
const NO_FILTER: RelevanceThresholds = { minSimilarity: -1, minCoverage: 0 };

/** Chunks per ranking call: with the product's 40 candidates per retriever, the top 40 fused. */
const RANKING_CHUNKS = 40;
/** Ranking calls: the product's fusion, wider and without the evidence filter. */
const RANKING: Partial<RetrievalSettings> = {
  k: RANKING_CHUNKS,
  candidates: 40,
  thresholds: NO_FILTER,
  evidenceModel: undefined,
};

/**
 * Plain RRF with the product's boosts off (section title, phrase, release notes): the single
 * retrievers are measured as such, so their lists are the very lists retrieve() fuses (the
 * what-ifs below re-fuse them), whichever fusion method the product uses.
 */
const NO_BOOSTS: Partial<RetrievalSettings> = {
  fusion: 'rrf',
  titleWeight: 0,
  phraseWeight: 0,
  releaseNotesPenalty: 0,
};

/** Key of a fusion what-if in ItemResult.fusionWhatIf. */
export const whatIfKey = (w: number) => `w_vector=${w}`;

/** Vector-list weights tried in the fusion diagnostics (keyword weight as in the product). */
export const FUSION_WHAT_IF_WEIGHTS = [1, 0.5, 0.3, 0.2, 0.15, 0.1, 0.05, 0.02];

export interface MethodResult {
  firstGoldRank?: number;
  /** Top pages ('entityRef|pagePath'), up to MRR_DEPTH. */
  pages: string[];
  ms: number;
}

export interface ItemResult {
  id: string;
  corpus: string;
  lang: string;
  kind: string;
  /** Reporting group (evalItems.ts): shared-dev, items-train, items-dev, items-test. */
  set: string;
  answerable: boolean;
  question: string;
  gold: string[];
  methods: Record<string, MethodResult>;
  /** The product path: hybrid, k=8, the configured evidence filter. */
  product: {
    kept: number;
    refused: boolean;
    firstGoldRank?: number;
    corrections: Array<{ from: string; to: string }>;
    /** The sentences read as the asker's situation (language/situation.ts), when any. */
    situation?: string[];
    ms: number;
    /** The evidence decision's features and probability (fitEvidenceModel.ts reads them). */
    evidence?: RetrievalResult['evidence'];
  };
  /**
   * Diagnostics, not product behaviour: first gold rank when the vector and keyword lists above
   * are fused with weighted RRF (vector weight w, keyword weight 1, k=60). At the product's
   * weight it must reproduce hybrid without the title boost (rrfOnlyFirstGoldRank) exactly; it
   * checks that the harness sees the same lists the retriever fuses.
   */
  fusionWhatIf: Record<string, number | undefined>;
  /**
   * First gold rank of 'hybrid' without the title, phrase and release-notes terms (0): the
   * plain weighted RRF that the what-ifs must reproduce at the product's weights.
   */
  rrfOnlyFirstGoldRank?: number;
  /** Best evidence among the top fused hybrid candidates (ranking call), for threshold sweeps. */
  evidence: {
    maxSimilarity: number | null;
    maxCoverage: number | null;
    candidates: number;
  };
  /** The product's answer step on the product path's chunks, judged (with a model only). */
  answer?: AnswerJudgement & { model: string; ms: number };
}

export interface EvaluateOptions {
  knex: Knex;
  embedder: Embedder;
  analyzers: Analyzers;
  sites: Map<string, CorpusSite>;
  items: EvalItem[];
  product?: ProductSettings;
  visibility?: Visibility;
  /** Also answer each question with this model and judge the answer (answerJudge.ts). */
  model?: ChatModel;
  answerOptions?: AnswerOptions;
  onItem?: (result: ItemResult, index: number) => void;
  /** Only the hybrid ranking and the product path (no single retrievers, baselines, what-ifs). */
  quick?: boolean;
  /** A cross-encoder, applied as the product applies it: product path and hybrid ranking. */
  reranker?: Reranker;
}

export async function pageKeys(knex: Knex) {
  const rows: Array<{
    chunk_id: string;
    document_id: string;
    entity_ref: string;
    page_path: string;
    source_kind: string;
  }> = await knex('ask_docs_chunks as c')
    .join('ask_docs_documents as d', 'd.document_id', 'c.document_id')
    .select(
      'c.chunk_id',
      'c.document_id',
      'd.entity_ref',
      'd.page_path',
      'd.source_kind',
    );
  const byChunk = new Map<string, string>();
  for (const r of rows) {
    // Catalog documents have no page; they can never be gold.
    byChunk.set(
      r.chunk_id,
      r.source_kind === 'techdocs'
        ? `${r.entity_ref}|${r.page_path}`
        : `${r.entity_ref}|(catalog)`,
    );
  }
  return byChunk;
}

export async function evaluate(
  options: EvaluateOptions,
): Promise<ItemResult[]> {
  const { knex, embedder, analyzers, sites } = options;
  const product = options.product ?? productSettings(embedder);
  const whatIfWeights = [
    ...new Set([...FUSION_WHAT_IF_WEIGHTS, product.weights?.vector ?? 1]),
  ].sort((a, b) => b - a);
  const visibility =
    options.visibility ??
    (await resolveVisibility({
      permissions: fakePermissionsService(),
      credentials: userCredentials(),
    }));
  // Built as plugin.ts builds AskService's: the evaluation measures the object the product runs.
  const pipeline = new QuestionPipeline({
    index: new KnowledgeIndex(knex),
    embedder,
    analyzers,
    model: options.model,
    retrieval: product,
    answer: options.answerOptions ?? {},
    reranker: options.reranker,
    logger: { warn: m => process.stderr.write(`${m}\n`) },
  });
  const pageOf = await pageKeys(knex);
  const pagesOf = (chunkIds: string[]) =>
    rankPages(chunkIds.map(id => pageOf.get(id) ?? `?|${id}`));

  const results: ItemResult[] = [];
  for (const [index, item] of options.items.entries()) {
    const site = sites.get(item.corpus);
    if (!site)
      throw new Error(`${item.id}: corpus ${item.corpus} is not in the index`);
    const gold = item.gold.map(
      g =>
        `${corpusEntityRef(item.corpus)}|${builtPagePath(site.form, g.page)}`,
    );
    const goldSet = new Set(gold);
    // The product's own pipeline object: the same analysis, embedding and retrieval as AskService.
    const question = await pipeline.embed(pipeline.analyse(item.question));

    const methods: Record<string, MethodResult> = {};
    const lists: Partial<Record<RetrievalMode, string[]>> = {};
    let evidence: ItemResult['evidence'] = {
      maxSimilarity: null,
      maxCoverage: null,
      candidates: 0,
    };
    for (const mode of options.quick
      ? (['hybrid'] as const)
      : RETRIEVER_MODES) {
      const t0 = performance.now();
      const r = await pipeline.retrieve(question, visibility, {
        mode,
        settings: mode === 'hybrid' ? RANKING : { ...RANKING, ...NO_BOOSTS },
        // The single retrievers are measured as retrieve() fuses them.
        rerank: mode === 'hybrid',
      });
      const ms = performance.now() - t0;
      lists[mode] = r.chunks.map(c => c.chunkId);
      const pages = pagesOf(lists[mode]!);
      methods[mode] = {
        firstGoldRank: firstGoldRank(pages, goldSet),
        pages: pages.slice(0, MRR_DEPTH),
        ms,
      };
      if (mode === 'hybrid') {
        const sims = r.chunks
          .map(c => c.similarity)
          .filter((s): s is number => s !== null);
        const covs = r.chunks
          .map(c => c.coverage)
          .filter((s): s is number => s !== null);
        evidence = {
          maxSimilarity: sims.length ? Math.max(...sims) : null,
          maxCoverage: covs.length ? Math.max(...covs) : null,
          candidates: r.candidatesConsidered,
        };
      }
    }
    if (!options.quick) {
      const t0 = performance.now();
      const hits = await vectorSearch({
        reader: new IndexReader(knex, visibility),
        modelId: embedder.modelId,
        queryVector: question.queryVector,
        k: RANKING_CHUNKS,
        strategy: 'exact',
      });
      const ms = performance.now() - t0;
      const pages = pagesOf(hits.map(h => h.chunkId));
      methods[EXACT_VECTOR] = {
        firstGoldRank: firstGoldRank(pages, goldSet),
        pages: pages.slice(0, MRR_DEPTH),
        ms,
      };
    }
    for (const variant of options.quick ? [] : FULL_TEXT_VARIANTS) {
      const t0 = performance.now();
      const ids = await fullTextSearch(
        knex,
        item.question,
        variant,
        RANKING_CHUNKS,
      );
      const ms = performance.now() - t0;
      const pages = pagesOf(ids);
      methods[variant.name] = {
        firstGoldRank: firstGoldRank(pages, goldSet),
        pages: pages.slice(0, MRR_DEPTH),
        ms,
      };
    }

    let rrfOnlyFirstGoldRank: number | undefined;
    if (!options.quick) {
      const settings = { ...RANKING, ...NO_BOOSTS };
      const r = await pipeline.retrieve(question, visibility, {
        settings,
        rerank: false,
      });
      rrfOnlyFirstGoldRank = firstGoldRank(
        pagesOf(r.chunks.map(c => c.chunkId)),
        goldSet,
      );
    }
    const fusionWhatIf: Record<string, number | undefined> = {};
    for (const w of options.quick ? [] : whatIfWeights) {
      const fused = reciprocalRankFusion([lists.vector!, lists.keyword!], {
        k: product.rrfK,
        weights: [w, product.weights?.keyword ?? 1],
      })
        .map(f => f.id)
        .slice(0, RANKING_CHUNKS);
      fusionWhatIf[whatIfKey(w)] = firstGoldRank(pagesOf(fused), goldSet);
    }

    const t0 = performance.now();
    const p = await pipeline.retrieve(question, visibility);
    const productMs = performance.now() - t0;
    const productPages = pagesOf(p.chunks.map(c => c.chunkId));

    let answer: ItemResult['answer'];
    if (options.model) {
      const a0 = performance.now();
      const { chunks, result: answered } = await pipeline.answer(question, p);
      const judgement = judgeAnswer({
        answerable: item.answerable,
        evidence: item.evidence,
        gold: goldSet,
        result: answered,
        chunks,
        pageOf: id => pageOf.get(id) ?? `?|${id}`,
        analyzers,
      });
      answer = {
        ...judgement,
        model: options.model.model,
        ms: performance.now() - a0,
      };
    }
    const result: ItemResult = {
      id: item.id,
      corpus: item.corpus,
      lang: item.lang,
      kind: item.kind,
      set: item.set,
      answerable: item.answerable,
      question: item.question,
      gold,
      methods,
      product: {
        kept: p.chunks.length,
        refused: p.chunks.length === 0,
        firstGoldRank: firstGoldRank(productPages, goldSet),
        corrections: p.corrections,
        ...(question.situation.length ? { situation: question.situation } : {}),
        ms: productMs,
        evidence: p.evidence,
      },
      fusionWhatIf,
      rrfOnlyFirstGoldRank,
      evidence,
      answer,
    };
    results.push(result);
    options.onItem?.(result, index);
  }
  return results;
}
