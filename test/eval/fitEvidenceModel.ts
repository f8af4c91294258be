/*
 * Fits the question-level evidence model (decision record 0009) on the TRAINING split only,
 * from an evaluation run's recorded features. From the repository root:
 *
 *   node -r @backstage/cli/config/nodeTransform.cjs test/eval/run.ts --quick --name features \
 *     --sets items-train,items-dev,shared-dev,form-train,form-dev,form-shared-dev
 *   node -r @backstage/cli/config/nodeTransform.cjs test/eval/fitEvidenceModel.ts \
 *     [--run test-results/eval/features.json] [--l2 0.1] [--cost 2 | --max-false 0.04] [--write]
 *     [--drop feature,…] [--train items-train[,form-train]]
 *
 * Logistic regression on standardised features (full-batch gradient descent, L2 penalty, classes
 * weighted to equal total weight), then the cutoff that maximises refusal rate − cost × false
 * refusal rate on train, or (--max-false) the most refusal with at most that false refusal rate
 * on train. Prints coefficients and train / dev / shared-dev results; `--write`
 * stores the model for the run's embedder kind in evidenceModel.fitted.ts.
 */
import fs from 'fs';
import path from 'path';
import {
  EVIDENCE_FEATURES,
  EvidenceFeatureName,
  EvidenceFeatures,
  EvidenceModel,
  evidenceProbability,
} from '../../plugins/ask-docs-backend/src/retrieval/evidence';
// prettier-ignore
import {
  FITTED_EVIDENCE_MODELS,
} from '../../plugins/ask-docs-backend/src/retrieval/evidenceModel.fitted';
import type { ItemResult } from './evaluate';
import { formSet } from './questionForm';

const FITTED = path.resolve(
  __dirname,
  '../../plugins/ask-docs-backend/src/retrieval/evidenceModel.fitted.ts',
);

interface Sample {
  id: string;
  x: EvidenceFeatures;
  answerable: boolean;
  set: string;
  lang: string;
}

function parseArgs(argv: string[]) {
  const a = {
    run: 'test-results/eval/features.json',
    // 0.1 since the eighth round (the wording features removed); 0.03 in the seventh, 0.01
    // before: the smallest penalty that both dev sets rewarded each time (decision record 0009).
    l2: 0.1,
    cost: 2,
    maxFalse: undefined as number | undefined,
    write: false,
    drop: [] as string[],
    train: ['items-train'],
  };
  for (let i = 0; i < argv.length; i++) {
    const v = () => {
      if (argv[i + 1] === undefined)
        throw new Error(`${argv[i]} needs a value`);
      return argv[++i];
    };
    if (argv[i] === '--run') a.run = v();
    else if (argv[i] === '--l2') a.l2 = Number(v());
    else if (argv[i] === '--cost') a.cost = Number(v());
    else if (argv[i] === '--max-false') a.maxFalse = Number(v());
    else if (argv[i] === '--write') a.write = true;
    else if (argv[i] === '--drop') a.drop = v().split(',').filter(Boolean);
    else if (argv[i] === '--train') a.train = v().split(',').filter(Boolean);
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!(a.l2 >= 0) || !(a.cost > 0))
    throw new Error('--l2 must be >= 0 and --cost > 0');
  if (a.maxFalse !== undefined && !(a.maxFalse >= 0 && a.maxFalse < 1))
    throw new Error('--max-false must be a rate from 0 to below 1');
  const unknown = a.drop.filter(
    d => !(EVIDENCE_FEATURES as readonly string[]).includes(d),
  );
  if (unknown.length) throw new Error(`unknown feature ${unknown.join(', ')}`);
  // The training split and its question-form variants only: dev and test stay unseen.
  const notTraining = a.train.filter(
    t => !['items-train', 'form-train'].includes(t),
  );
  if (notTraining.length || !a.train.includes('items-train'))
    throw new Error(
      `--train takes items-train and optionally form-train, not ${a.train.join(
        ',',
      )}`,
    );
  return a;
}

/** Space-separated words in lines of at most `width` characters (a longer word stands alone). */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= width)
      lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines;
}

/**
 * The fitted file's text after `head`: the models as JSON, except each model's feature names as
 * one featureNames('…') list (checked against EVIDENCE_FEATURES at load) rather than an array
 * that repeats EVIDENCE_FEATURES line by line. Prettier formats it afterwards.
 */
export function fittedModelsSource(
  head: string,
  models: Record<string, EvidenceModel>,
): string {
  const json = JSON.stringify(
    models,
    (key, value) =>
      key === 'features' ? `@features:${value.join(' ')}` : value,
    2,
  ).replace(/"@features:([^"]*)"/g, (_, names: string) => {
    const lines = wrapWords(names, 80);
    const quoted = lines.map(
      (l, i) => `'${l}${i < lines.length - 1 ? ' ' : ''}'`,
    );
    return `featureNames(\n${quoted.join(' +\n')},\n)`;
  });
  const declaration =
    'export const FITTED_EVIDENCE_MODELS: Partial<Record<EmbedderKind, EvidenceModel>>';
  return `${head}${declaration} = ${json};\n`;
}

/** Logistic regression by gradient descent on standardised inputs; returns a model (cutoff 0.5). */
export function fitLogistic(
  samples: Sample[],
  l2: number,
  fittedOn: string,
  names: EvidenceFeatureName[] = [...EVIDENCE_FEATURES],
): EvidenceModel {
  const cols = names.map(n => samples.map(s => s.x[n]));
  const mean = cols.map(c => c.reduce((s, v) => s + v, 0) / c.length);
  const scale = cols.map((c, j) => {
    const sd = Math.sqrt(
      c.reduce((s, v) => s + (v - mean[j]) ** 2, 0) / c.length,
    );
    return sd > 1e-9 ? sd : 1;
  });
  const X = samples.map(s =>
    names.map((n, j) => (s.x[n] - mean[j]) / scale[j]),
  );
  const y = samples.map(s => (s.answerable ? 1 : 0));
  const pos = y.filter(v => v === 1).length;
  // Equal total weight per class: the training set has ~3 answerable per unanswerable question.
  const w = y.map(v =>
    v === 1
      ? samples.length / (2 * pos)
      : samples.length / (2 * (samples.length - pos)),
  );
  const weights = names.map(() => 0);
  let bias = 0;
  for (let iter = 0; iter < 5000; iter++) {
    const gw = names.map(() => 0);
    let gb = 0;
    X.forEach((row, i) => {
      const z = bias + row.reduce((s, v, j) => s + v * weights[j], 0);
      const err = (1 / (1 + Math.exp(-z)) - y[i]) * w[i];
      row.forEach((v, j) => (gw[j] += err * v));
      gb += err;
    });
    const rate = 0.5;
    weights.forEach(
      (_, j) => (weights[j] -= rate * (gw[j] / X.length + l2 * weights[j])),
    );
    bias -= (rate * gb) / X.length;
  }
  return { features: names, mean, scale, weights, bias, cutoff: 0.5, fittedOn };
}

function rates(model: EvidenceModel, samples: Sample[]) {
  const u = samples.filter(s => !s.answerable);
  const a = samples.filter(s => s.answerable);
  const refused = (s: Sample) => evidenceProbability(model, s.x) < model.cutoff;
  return {
    refusal: u.length ? u.filter(refused).length / u.length : NaN,
    falseRefusal: a.length ? a.filter(refused).length / a.length : NaN,
    n: `${a.length}/${u.length}`,
  };
}

/**
 * Threshold-free quality of a model on a group: AUC (chance that an answerable question scores
 * above an unanswerable one) and the refusal reached while at most `maxFalse` of the answerable
 * ones are refused. Compares feature sets without the noise of one cutoff.
 */
export function separation(
  model: EvidenceModel,
  samples: Sample[],
  maxFalse = 0.05,
) {
  const p = (s: Sample) => evidenceProbability(model, s.x);
  const a = samples
    .filter(s => s.answerable)
    .map(p)
    .sort((x, y) => x - y);
  const u = samples.filter(s => !s.answerable).map(p);
  if (a.length === 0 || u.length === 0)
    return { auc: NaN, refusalAtFalse: NaN };
  let pairs = 0;
  for (const x of a) for (const y of u) pairs += x > y ? 1 : x === y ? 0.5 : 0;
  // The highest cutoff that refuses at most maxFalse of the answerable questions.
  const cut = a[Math.floor(maxFalse * a.length)];
  const refusalAtFalse = u.filter(y => y < cut).length / u.length;
  return { auc: pairs / (a.length * u.length), refusalAtFalse };
}

/**
 * The cutoff on the given (training) samples that maximises refusal − cost × false refusal, or
 * with `maxFalse`, the most refusal whose false refusal stays within that rate.
 */
export function chooseCutoff(
  model: EvidenceModel,
  samples: Sample[],
  cost: number,
  maxFalse?: number,
): number {
  const probs = [
    ...new Set(samples.map(s => evidenceProbability(model, s.x))),
  ].sort((p, q) => p - q);
  let best = { cutoff: 0.5, score: -Infinity };
  for (let i = 0; i < probs.length; i++) {
    // Midpoints between neighbouring probabilities, so the cutoff is not on a training item.
    const cutoff =
      i + 1 < probs.length ? (probs[i] + probs[i + 1]) / 2 : probs[i] + 1e-6;
    const r = rates({ ...model, cutoff }, samples);
    const score =
      maxFalse === undefined
        ? r.refusal - cost * r.falseRefusal
        : r.falseRefusal <= maxFalse
        ? r.refusal
        : -Infinity;
    if (score > best.score) best = { cutoff, score };
  }
  return best.cutoff;
}

const pct = (x: number) => (Number.isNaN(x) ? '-' : (100 * x).toFixed(1));

/**
 * Does the decision follow the question or its wording? For each item whose other form
 * (questionForm.ts, id `<id>~form`) was run too, whether both forms get the same decision.
 */
export function formAgreement(
  model: EvidenceModel,
  samples: Sample[],
  set: string,
) {
  const byId = new Map(samples.map(s => [s.id, s]));
  const refused = (s: Sample) => evidenceProbability(model, s.x) < model.cutoff;
  const out = { answerable: [0, 0], unanswerable: [0, 0] };
  for (const s of samples) {
    const other = s.set === set ? byId.get(`${s.id}~form`) : undefined;
    if (!other) continue;
    const counts = s.answerable ? out.answerable : out.unanswerable;
    counts[0] += 1;
    if (refused(s) !== refused(other)) counts[1] += 1;
  }
  return out;
}

function renderFormAgreement(
  model: EvidenceModel,
  samples: Sample[],
  sets: string[],
): string {
  const lines = [
    '| set | answerable pairs: decision differs | unanswerable pairs: decision differs |',
    '| --- | --- | --- |',
  ];
  for (const set of sets) {
    const a = formAgreement(model, samples, set);
    if (a.answerable[0] + a.unanswerable[0] === 0) continue;
    const cell = ([n, d]: number[]) => `${d} of ${n}`;
    lines.push(`| ${set} | ${cell(a.answerable)} | ${cell(a.unanswerable)} |`);
  }
  return `${lines.join('\n')}\n`;
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const run = JSON.parse(fs.readFileSync(path.resolve(args.run), 'utf8'));
  const results: ItemResult[] = run.results;
  const kind: string = run.report.embedder.kind;
  // Items with no candidate at all are refused before any decision: nothing to learn from them.
  const samples: Sample[] = results
    .filter(r => r.product.evidence)
    .map(r => ({
      id: r.id,
      x: r.product.evidence!.features,
      answerable: r.answerable,
      set: r.set,
      lang: r.lang,
    }));
  const train = samples.filter(s => args.train.includes(s.set));
  const absent = args.train.filter(t => !train.some(s => s.set === t));
  if (absent.length)
    throw new Error(`${args.run} has no results for ${absent.join(', ')}`);
  if (train.length < 50)
    throw new Error(
      `only ${train.length} training items with features in ${args.run}`,
    );
  const fittedOn = `${args.train.join(' + ')}, ${train.length} questions, ${
    run.report.embedder.modelId
  }, ${new Date().toISOString().slice(0, 10)}`;
  const names = EVIDENCE_FEATURES.filter(f => !args.drop.includes(f));
  const model = fitLogistic(train, args.l2, fittedOn, names);
  model.cutoff = chooseCutoff(model, train, args.cost, args.maxFalse);
  process.stdout.write(
    `embedder kind ${kind}; l2 ${args.l2}; ${
      args.maxFalse === undefined
        ? `cost ${args.cost}`
        : `false refusal <= ${args.maxFalse}`
    }; cutoff ${model.cutoff.toFixed(4)}\n\n`,
  );
  process.stdout.write(
    '| feature | mean | scale | weight (standardised) |\n| --- | --- | --- | --- |\n',
  );
  model.features.forEach((f, j) =>
    process.stdout.write(
      `| ${f} | ${model.mean[j].toFixed(3)} | ${model.scale[j].toFixed(
        3,
      )} | ${model.weights[j].toFixed(3)} |\n`,
    ),
  );
  process.stdout.write(`| (bias) | | | ${model.bias.toFixed(3)} |\n\n`);
  process.stdout.write(
    '| set | lang | answerable/unanswerable | refused unanswerable % | false refusal % | AUC ' +
      '| refused at ≤ 5 % false |\n',
  );
  process.stdout.write('| --- | --- | --- | --- | --- | --- | --- |\n');
  // Test items are deliberately not printed here: the final report comes from run.ts.
  const sets = ['items-train', 'items-dev', 'shared-dev'];
  for (const set of [...sets, ...sets.map(formSet)]) {
    for (const lang of ['all', 'en', 'cs']) {
      const group = samples.filter(
        s => s.set === set && (lang === 'all' || s.lang === lang),
      );
      if (group.length === 0) continue;
      const r = rates(model, group);
      const q = separation(model, group);
      process.stdout.write(
        `| ${set} | ${lang} | ${r.n} | ${pct(r.refusal)} | ${pct(
          r.falseRefusal,
        )} ` + `| ${q.auc.toFixed(3)} | ${pct(q.refusalAtFalse)} |\n`,
      );
    }
  }
  process.stdout.write(`\n${renderFormAgreement(model, samples, sets)}`);
  if (args.write) {
    const round = (xs: number[]) => xs.map(v => Number(v.toPrecision(6)));
    const fitted = {
      ...model,
      mean: round(model.mean),
      scale: round(model.scale),
      weights: round(model.weights),
      bias: Number(model.bias.toPrecision(6)),
      cutoff: Number(model.cutoff.toPrecision(6)),
      // The model id makes it the default decision for this embedder (settings.ts).
      modelId: run.report.embedder.modelId,
    };
    const text = fs.readFileSync(FITTED, 'utf8');
    const head = text.slice(
      0,
      text.indexOf('export const FITTED_EVIDENCE_MODELS'),
    );
    // Keep other kinds' models: each kind is fitted from a run with its own embedder. (Read
    // as a module: the file is reformatted by prettier, so it is no longer JSON.)
    const existing: Record<string, EvidenceModel> = {
      ...FITTED_EVIDENCE_MODELS,
    };
    existing[kind] = fitted;
    fs.writeFileSync(FITTED, fittedModelsSource(head, existing));
    process.stdout.write(`\nwrote ${FITTED}\n`);
  }
}

if (require.main === module) main();
