/*
 * Offline ranking sweep over rankingDump.ts's output (train/dev only): re-scores each
 * question's fused candidates with the RRF boosts, score fusion and candidate extra evidence, and
 * prints R@1 / R@5 / MRR per set and language for each variant. Exploration only; a variant
 * that helps is built into the retriever and re-measured on the product path (run.ts).
 *
 *   node -r @backstage/cli/config/nodeTransform.cjs test/eval/experiments/rankingSweep.ts \
 *     [test-results/eval/ranking-dump.json]
 */
import fs from 'fs';
import { tokenize } from '../../../plugins/ask-docs-backend/src/language/tokenize';
// prettier-ignore
import {
  BUILT_IN_PROFILES,
} from '../../../plugins/ask-docs-backend/src/language/createLanguageAnalyzers';
import {
  detectLanguage,
  languageScores,
} from '../../../plugins/ask-docs-backend/src/language/detectLanguage';
import { titleCoverage } from '../../../plugins/ask-docs-backend/src/retrieval/fusion';
import {
  MatchQueryToken,
  phraseShare,
  queryWordMatcher,
} from '../../../plugins/ask-docs-backend/src/retrieval/proximity';
import {
  asksAboutReleases,
  isReleaseNotes,
} from '../../../plugins/ask-docs-backend/src/retrieval/releaseNotes';
import { firstGoldRank, MRR_DEPTH, rankPages } from '../metrics';

export interface Candidate {
  id: string;
  page: string;
  rrf: number;
  coverage: number | null;
  keywordScore: number | null;
  similarity: number | null;
  title: string;
  sectionPath: string;
  text: string;
}
export interface Question {
  id: string;
  set: string;
  lang: string;
  answerable: boolean;
  question: string;
  gold: string[];
  tokens: MatchQueryToken[];
  idf: Record<string, number>;
  candidates: Candidate[];
}

/** Per candidate evidence values in [0, 1], computed once. */
export interface Features {
  title: number;
  phrase: number;
  heading: number;
  pageTitle: number;
  /** Share of the page title's content words the question names (title → question). */
  titlePrecision: number;
  /** titlePrecision, halved for a title that names a single question word. */
  titleTwo: number;
  /** The same for the deepest heading of the section path. */
  headingPrecision: number;
  /** 1 when the chunk's detected language is the question's (and the question has evidence). */
  sameLang: number;
  coverage: number;
  keyword: number;
}

const MAX_FUSED = 1.1 / 61;

const STOPWORDS = new Set(BUILT_IN_PROFILES.flatMap(p => [...p.stopwords]));

/** Share of a heading's content words (no stopwords, no numbers) that name a question word. */
function precision(
  heading: string,
  match: (w: string) => readonly number[],
  fullAt = 1,
) {
  const words = tokenize(heading).filter(
    w => !STOPWORDS.has(w) && !/\d/.test(w),
  );
  if (words.length === 0) return 0;
  const named = words.filter(w => match(w).length > 0).length;
  return (named / words.length) * Math.min(1, named / fullAt);
}

export function features(q: Question): Features[] {
  const idfOf = (t: string) => q.idf[t] ?? 0;
  const match = queryWordMatcher(q.tokens);
  const scores = languageScores(q.question, ['en', 'cs']);
  const qLang = scores[0].score > scores[1].score ? scores[0].lang : undefined;
  const maxKeyword = Math.max(
    1e-9,
    ...q.candidates.map(c => c.keywordScore ?? 0),
  );
  return q.candidates.map(c => {
    const parts = c.sectionPath.split(' › ');
    return {
      title: titleCoverage(q.tokens, idfOf, c.sectionPath, match),
      phrase: phraseShare(q.tokens, idfOf, c.text, match),
      heading: titleCoverage(
        q.tokens,
        idfOf,
        parts[parts.length - 1] ?? '',
        match,
      ),
      pageTitle: titleCoverage(q.tokens, idfOf, c.title, match),
      titlePrecision: precision(c.title, match),
      titleTwo: precision(c.title, match, 2),
      headingPrecision: precision(parts[parts.length - 1] ?? '', match),
      sameLang:
        qLang &&
        detectLanguage(`${c.sectionPath}\n${c.text}`, ['en', 'cs']) === qLang
          ? 1
          : 0,
      coverage: c.coverage ?? 0,
      keyword: (c.keywordScore ?? 0) / maxKeyword,
    };
  });
}

export type Scorer = (c: Candidate, f: Features) => number;

export function measure(
  questions: Question[],
  feats: Features[][],
  score: Scorer | Scorer[],
) {
  const groups = new Map<
    string,
    { n: number; r1: number; r5: number; mrr: number }
  >();
  questions.forEach((q, qi) => {
    if (!q.answerable) return;
    const order = q.candidates
      .map((c, i) => ({
        c,
        s: (Array.isArray(score) ? score[qi] : score)(c, feats[qi][i]),
        i,
      }))
      .sort((a, b) => b.s - a.s || a.i - b.i);
    const rank = firstGoldRank(
      rankPages(order.map(o => o.c.page)),
      new Set(q.gold),
    );
    for (const key of [q.set, `${q.set} ${q.lang}`, `all ${q.lang}`, 'all']) {
      const g = groups.get(key) ?? { n: 0, r1: 0, r5: 0, mrr: 0 };
      g.n += 1;
      if (rank === 1) g.r1 += 1;
      if (rank !== undefined && rank <= 5) g.r5 += 1;
      if (rank !== undefined && rank <= MRR_DEPTH) g.mrr += 1 / rank;
      groups.set(key, g);
    }
  });
  return groups;
}

const product =
  (t = 0.05, p = 0.1): Scorer =>
  (c, f) =>
    c.rrf + MAX_FUSED * (t * f.title + p * f.phrase);

/**
 * Score fusion (fusion.ts scoreFusion) with weights [keyword, vector, coverage, phrase, title];
 * BM25 and cosine relative to the best among the question's candidates. Only the order of
 * candidates matters, so the RRF score of the dump is not used.
 */
export function scoreFusion(
  questions: Question[],
  weights = [1, 1, 0.7, 0.6, 0.5],
): Array<Scorer> {
  return questions.map(q => {
    const best = (v: (c: Candidate) => number | null) =>
      Math.max(0, ...q.candidates.map(c => v(c) ?? 0));
    const [kw, sim] = [best(c => c.keywordScore), best(c => c.similarity)];
    const rel = (x: number | null, max: number) =>
      max > 0 ? Math.max(0, x ?? 0) / max : 0;
    const [wk, wv, wc, wp, wt] = weights;
    return (c, f) =>
      wk * rel(c.keywordScore, kw) +
      wv * rel(c.similarity, sim) +
      wc * f.coverage +
      wp * f.phrase +
      wt * f.title;
  });
}

function main() {
  const file = process.argv[2] ?? 'test-results/eval/ranking-dump.json';
  const questions: Question[] = JSON.parse(fs.readFileSync(file, 'utf8'));
  const feats = questions.map(features);
  const variants: Array<[string, Scorer]> = [
    ['rrf only', c => c.rrf],
    ['product (title 0.05, phrase 0.1)', product()],
  ];
  const base = product();
  // One boost a row: its name, the weights tried, and the candidate's value it scales.
  const boosts: Array<[string, number[], (f: Features) => number]> = [
    ['heading', [0.02, 0.05, 0.1, 0.2], f => f.heading],
    ['coverage', [0.02, 0.05, 0.1, 0.2], f => f.coverage],
    ['coverage^2', [0.02, 0.05, 0.1], f => f.coverage ** 2],
    ['keyword', [0.02, 0.05, 0.1, 0.2, 0.3, 0.5], f => f.keyword],
    ['pageTitle', [0.02, 0.05], f => f.pageTitle],
    ['sameLang', [0.01, 0.02, 0.05], f => f.sameLang],
    [
      'titlePrecision',
      [0.01, 0.015, 0.02, 0.05, 0.1, 0.2],
      f => f.titlePrecision,
    ],
    ['headingPrecision', [0.02, 0.05, 0.1, 0.2], f => f.headingPrecision],
    [
      'title×heading precision',
      [0.02, 0.05, 0.1],
      f => f.titlePrecision + f.headingPrecision,
    ],
  ];
  for (const [name, weights, value] of boosts)
    for (const w of weights)
      variants.push([
        `+ ${name} ${w}`,
        (c, f) => base(c, f) + MAX_FUSED * w * value(f),
      ]);
  for (const [k, v] of [
    [0.05, 0.05],
    [0.1, 0.1],
    [0.05, 0.1],
  ])
    variants.push([
      `+ keyword ${k} coverage ${v}`,
      (c, f) => base(c, f) + MAX_FUSED * (k * f.keyword + v * f.coverage),
    ]);
  const f1 = (p: number, r: number) => (p + r > 0 ? (2 * p * r) / (p + r) : 0);
  for (const w of [0.02, 0.03, 0.05, 0.1])
    variants.push([
      `+ titleF1 ${w}`,
      (c, f) => base(c, f) + MAX_FUSED * w * f1(f.titlePrecision, f.pageTitle),
    ]);
  for (const w of [0.03, 0.05])
    variants.push([
      `+ titlePrecision×pageTitle ${w}`,
      (c, f) => base(c, f) + MAX_FUSED * w * f.titlePrecision * f.pageTitle,
    ]);
  for (const w of [0.03])
    variants.push([
      `+ titlePrecision ${w}`,
      (c, f) => base(c, f) + MAX_FUSED * w * f.titlePrecision,
    ]);
  for (const w of [0.02, 0.03, 0.05, 0.1])
    variants.push([
      `+ titleTwo ${w}`,
      (c, f) => base(c, f) + MAX_FUSED * w * f.titleTwo,
    ]);
  // Score fusion: the built-in weights, each halved and one and a half times, and the
  // page title named by the question on top (dump with --candidates 40: the product's lists).
  const sf: Array<[string, Scorer[]]> = [
    ['scores 1/1/0.7/0.6/0.5 (built in)', scoreFusion(questions)],
  ];
  const names = ['keyword', 'vector', 'coverage', 'phrase', 'title'];
  for (const [i, name] of names.entries())
    for (const m of [0.5, 1.5]) {
      const w = [1, 1, 0.7, 0.6, 0.5].map((x, j) => (j === i ? x * m : x));
      sf.push([`scores, ${name} ×${m}`, scoreFusion(questions, w)]);
    }
  for (const w of [0.2, 0.4]) {
    const base2 = scoreFusion(questions);
    sf.push([
      `scores + titlePrecision ${w}`,
      base2.map(
        b => (c: Candidate, f: Features) => b(c, f) + w * f.titlePrecision,
      ),
    ]);
  }
  // Release notes lowered by a share of their score (releaseNotes.ts; built in 0.1), on top of
  // the built-in score fusion; a question about releases keeps them.
  const base3 = scoreFusion(questions);
  for (const penalty of [0.1, 0.2, 0.3, 0.5, 1]) {
    sf.push([
      `scores, release notes −${penalty}`,
      questions.map((q, qi) => (c: Candidate, f: Features) => {
        const lower =
          !asksAboutReleases(q.question) && isReleaseNotes(c.sectionPath);
        return base3[qi](c, f) * (lower ? 1 - penalty : 1);
      }),
    ]);
  }
  const only = process.env.SWEEP_ONLY;
  const keys = [
    'items-train en',
    'items-train cs',
    'items-dev en',
    'items-dev cs',
    'shared-dev en',
    'shared-dev cs',
    'all en',
    'all cs',
    'all',
  ];
  printVariants(
    questions,
    feats,
    [...variants, ...sf].filter(([name]) => !only || name.includes(only)),
    keys,
  );
}

/** One markdown row per variant: R@1 / R@5 / MRR for each `keys` group (set and language). */
export function printVariants(
  questions: Question[],
  feats: Features[][],
  rows: Array<[string, Scorer | Scorer[]]>,
  keys: string[],
) {
  process.stdout.write(
    `| variant | ${keys.join(' | ')} |\n| --- |${keys
      .map(() => ' --- |')
      .join('')}\n`,
  );
  for (const [name, scorer] of rows) {
    const g = measure(questions, feats, scorer);
    const cell = (k: string) => {
      const x = g.get(k);
      return x
        ? `${((100 * x.r1) / x.n).toFixed(1)} / ${((100 * x.r5) / x.n).toFixed(
            1,
          )} / ${(x.mrr / x.n).toFixed(3)}`
        : '';
    };
    process.stdout.write(`| ${name} | ${keys.map(cell).join(' | ')} |\n`);
  }
}

if (require.main === module) main();
