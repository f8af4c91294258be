/*
 * Offline sweep (train/dev/shared-dev dump of rankingDump.ts): page-level and pseudo-relevance
 * evidence on top of the built-in score fusion. Exploration only.
 *
 *   node -r @backstage/cli/config/nodeTransform.cjs test/eval/experiments/pageSweep.ts DUMP
 */
import fs from 'fs';
import { tokenize } from '../../../plugins/ask-docs-backend/src/language/tokenize';
// prettier-ignore
import {
  BUILT_IN_PROFILES,
} from '../../../plugins/ask-docs-backend/src/language/createLanguageAnalyzers';
import { queryWordMatcher } from '../../../plugins/ask-docs-backend/src/retrieval/proximity';
import {
  Candidate,
  Features,
  features,
  printVariants,
  Question,
  scoreFusion,
  Scorer,
} from './rankingSweep';

const STOPWORDS = new Set(BUILT_IN_PROFILES.flatMap(p => [...p.stopwords]));

/** idf-weighted share of the question's tokens named anywhere in the page's candidates. */
function pageUnion(q: Question): number[] {
  const match = queryWordMatcher(q.tokens);
  const named = new Map<string, Set<number>>();
  for (const c of q.candidates) {
    const set = named.get(c.page) ?? new Set<number>();
    for (const w of tokenize(`${c.sectionPath}\n${c.text}`))
      for (const i of match(w)) set.add(i);
    named.set(c.page, set);
  }
  const idf = q.tokens.map(t => q.idf[t.token] ?? 0);
  const total = idf.reduce((a, b) => a + b, 0);
  return q.candidates.map(c => {
    if (!(total > 0)) return 0;
    let covered = 0;
    for (const i of named.get(c.page)!) covered += idf[i];
    return covered / total;
  });
}

function termVector(text: string): Map<string, number> {
  const v = new Map<string, number>();
  for (const w of tokenize(text)) {
    if (STOPWORDS.has(w) || w.length < 3 || /^\d+$/.test(w)) continue;
    v.set(w, (v.get(w) ?? 0) + 1);
  }
  for (const [w, n] of v) v.set(w, 1 + Math.log(n));
  return v;
}

function cosine(a: Map<string, number>, b: Map<string, number>) {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [w, x] of a) {
    na += x * x;
    const y = b.get(w);
    if (y) dot += x * y;
  }
  for (const y of b.values()) nb += y * y;
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/** Cosine of each candidate's words with the centroid of the top `n` under `base`. */
function prf(q: Question, f: Features[], base: Scorer, n: number): number[] {
  const vectors = q.candidates.map(c =>
    termVector(`${c.sectionPath}\n${c.text}`),
  );
  const order = q.candidates
    .map((c, i) => ({ s: base(c, f[i]), i }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .slice(0, n);
  const centroid = new Map<string, number>();
  for (const { i } of order)
    for (const [w, x] of vectors[i])
      centroid.set(w, (centroid.get(w) ?? 0) + x);
  return vectors.map(v => cosine(v, centroid));
}

function main() {
  const file = process.argv[2];
  const questions: Question[] = JSON.parse(fs.readFileSync(file, 'utf8'));
  const feats = questions.map(features);
  const base = scoreFusion(questions);
  const union = questions.map(pageUnion);
  const idx = (q: Question) => new Map(q.candidates.map((c, i) => [c, i]));
  const indexes = questions.map(idx);
  const keys = [
    'items-train en',
    'items-train cs',
    'items-dev en',
    'items-dev cs',
    'shared-dev en',
    'shared-dev cs',
    'all en',
    'all cs',
  ];
  const rows: Array<[string, Scorer[]]> = [['built in', base]];
  for (const w of [0.1, 0.2, 0.3, 0.5, 0.8])
    rows.push([
      `+ pageUnion ${w}`,
      base.map(
        (b, qi) => (c: Candidate, f: Features) =>
          b(c, f) + w * union[qi][indexes[qi].get(c)!],
      ),
    ]);
  for (const n of [3, 5, 10]) {
    const sims = questions.map((q, qi) => prf(q, feats[qi], base[qi], n));
    for (const w of [0.2, 0.5, 1])
      rows.push([
        `+ prf top${n} ${w}`,
        base.map(
          (b, qi) => (c: Candidate, f: Features) =>
            b(c, f) + w * sims[qi][indexes[qi].get(c)!],
        ),
      ]);
  }
  printVariants(questions, feats, rows, keys);
}

main();
