/* Aggregates item results into the evaluation report (JSON) and renders it as markdown. */
import { AnswerQualitySummary, summariseAnswers } from './answerJudge';
import { ItemResult, METHODS, ProductSettings, whatIfKey } from './evaluate';
import { groupBy, percentile, RankingSummary, summarizeRanks } from './metrics';

export interface RefusalSummary {
  /** Unanswerable items the filter left empty (the product says "not in the knowledge base"). */
  unanswerable: { n: number; refused: number; accuracy: number };
  /** Answerable items wrongly left empty. */
  answerable: {
    n: number;
    refused: number;
    falseRefusalRate: number;
    goldKeptAt5: number;
  };
  byKind: Record<string, { n: number; refused: number }>;
}

/** Hybrid ranking and product-path refusal of one group of items (a set, or a set and language). */
export interface GroupSummary {
  ranking: RankingSummary;
  unanswerable: { n: number; refused: number; refusalRate: number };
  answerable: { n: number; refused: number; falseRefusalRate: number };
}

export interface SetSummary extends GroupSummary {
  byLang: Record<string, GroupSummary>;
}

export interface SweepPoint {
  minSimilarity: number;
  minCoverage: number;
  refusalAccuracy: number;
  falseRefusalRate: number;
}

export interface EvalReport {
  embedder: { modelId: string; kind: string; dimension: number; note: string };
  corpora: string[];
  product: ProductSettings;
  items: { answerable: number; unanswerable: number };
  methods: Record<
    string,
    {
      overall: RankingSummary;
      byKind: Record<string, RankingSummary>;
      byLang: Record<string, RankingSummary>;
      byCorpus: Record<string, RankingSummary>;
      latencyMs: { p50: number; p95: number };
    }
  >;
  refusal: RefusalSummary;
  /** Per evaluation set (shared-dev, items-train, items-dev, items-test) and language. */
  bySet: Record<string, SetSummary>;
  /** Diagnostics: weighted-RRF fusions of the same vector and keyword lists (see evaluate.ts). */
  fusionWhatIf: Record<
    string,
    { overall: RankingSummary; byLang: Record<string, RankingSummary> }
  >;
  /**
   * Items where the what-if at the product's vector weight differs from 'hybrid' (0 = the harness
   * fuses what retrieve() fuses).
   */
  fusionReproductionMismatches: string[];
  /**
   * Approximate (over the top 40 fused candidates): refusal vs false refusal per threshold pair.
   */
  sweep: SweepPoint[];
  /** Answer quality, when a model answered (run.ts --answers). */
  answers?: AnswerQualitySummary & {
    model: string;
    latencyMs: { p50: number; p95: number };
  };
  timings: Record<string, number>;
}

const record = <T>(
  m: Map<string, ItemResult[]>,
  f: (items: ItemResult[]) => T,
) =>
  Object.fromEntries(
    [...m.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => [k, f(v)]),
  );

function groupSummary(items: ItemResult[]): GroupSummary {
  const a = items.filter(r => r.answerable);
  const u = items.filter(r => !r.answerable);
  const refused = (xs: ItemResult[]) =>
    xs.filter(r => r.product.refused).length;
  return {
    ranking: summarizeRanks(a.map(i => i.methods.hybrid.firstGoldRank)),
    unanswerable: {
      n: u.length,
      refused: refused(u),
      refusalRate: u.length ? refused(u) / u.length : 0,
    },
    answerable: {
      n: a.length,
      refused: refused(a),
      falseRefusalRate: a.length ? refused(a) / a.length : 0,
    },
  };
}

/** Methods the run measured (run.ts --quick measures hybrid only). */
export const methodsIn = (report: Pick<EvalReport, 'methods'>) =>
  METHODS.filter(m => report.methods[m]);

export function buildReport(
  results: ItemResult[],
  context: Pick<EvalReport, 'embedder' | 'corpora' | 'product' | 'timings'>,
): EvalReport {
  const answerable = results.filter(r => r.answerable);
  const unanswerable = results.filter(r => !r.answerable);
  const methods: EvalReport['methods'] = {};
  for (const m of METHODS.filter(x => results.every(r => r.methods[x]))) {
    const summarize = (items: ItemResult[]) =>
      summarizeRanks(items.map(i => i.methods[m].firstGoldRank));
    const ms = results.map(r => r.methods[m].ms);
    methods[m] = {
      overall: summarize(answerable),
      byKind: record(
        groupBy(answerable, r => r.kind),
        summarize,
      ),
      byLang: record(
        groupBy(answerable, r => r.lang),
        summarize,
      ),
      byCorpus: record(
        groupBy(answerable, r => r.corpus),
        summarize,
      ),
      latencyMs: { p50: percentile(ms, 50), p95: percentile(ms, 95) },
    };
  }
  const refusedU = unanswerable.filter(r => r.product.refused).length;
  const refusedA = answerable.filter(r => r.product.refused).length;
  const refusal: RefusalSummary = {
    unanswerable: {
      n: unanswerable.length,
      refused: refusedU,
      accuracy: unanswerable.length ? refusedU / unanswerable.length : 0,
    },
    answerable: {
      n: answerable.length,
      refused: refusedA,
      falseRefusalRate: answerable.length ? refusedA / answerable.length : 0,
      goldKeptAt5: answerable.length
        ? answerable.filter(
            r =>
              r.product.firstGoldRank !== undefined &&
              r.product.firstGoldRank <= 5,
          ).length / answerable.length
        : 0,
    },
    byKind: record(
      groupBy(
        results,
        r => `${r.answerable ? 'answerable' : 'unanswerable'}/${r.kind}`,
      ),
      items => ({
        n: items.length,
        refused: items.filter(i => i.product.refused).length,
      }),
    ),
  };
  const fusionWhatIf: EvalReport['fusionWhatIf'] = {};
  for (const key of Object.keys(answerable[0]?.fusionWhatIf ?? {})) {
    const summarize = (items: ItemResult[]) =>
      summarizeRanks(items.map(i => i.fusionWhatIf[key]));
    fusionWhatIf[key] = {
      overall: summarize(answerable),
      byLang: record(
        groupBy(answerable, r => r.lang),
        summarize,
      ),
    };
  }
  // The what-if at the product's own weight must reproduce 'hybrid' item by item.
  const productKey = whatIfKey(context.product.weights?.vector ?? 1);
  const fusionReproductionMismatches = results
    .filter(r => productKey in r.fusionWhatIf)
    .filter(r => {
      const plainRrf = r.rrfOnlyFirstGoldRank ?? r.methods.hybrid.firstGoldRank;
      return r.fusionWhatIf[productKey] !== plainRrf;
    })
    .map(r => r.id);
  const sweep: SweepPoint[] = [];
  for (const minSimilarity of [0.3, 0.4, 0.5, 0.6, 0.7, 0.8]) {
    for (const minCoverage of [0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]) {
      const refused = (r: ItemResult) =>
        !(
          (r.evidence.maxSimilarity ?? -Infinity) >= minSimilarity ||
          (r.evidence.maxCoverage ?? -Infinity) >= minCoverage
        );
      sweep.push({
        minSimilarity,
        minCoverage,
        refusalAccuracy: unanswerable.length
          ? unanswerable.filter(refused).length / unanswerable.length
          : 0,
        falseRefusalRate: answerable.length
          ? answerable.filter(refused).length / answerable.length
          : 0,
      });
    }
  }
  const judged = results.filter(r => r.answer);
  const answers: EvalReport['answers'] = judged.length
    ? {
        model: judged[0].answer!.model,
        ...summariseAnswers(
          judged.map(r => ({ answerable: r.answerable, judgement: r.answer! })),
        ),
        latencyMs: {
          p50: percentile(
            judged.map(r => r.answer!.ms),
            50,
          ),
          p95: percentile(
            judged.map(r => r.answer!.ms),
            95,
          ),
        },
      }
    : undefined;
  const bySet = record(
    groupBy(results, r => r.set ?? 'unknown'),
    items => ({
      ...groupSummary(items),
      byLang: record(
        groupBy(items, r => r.lang),
        groupSummary,
      ),
    }),
  );
  return {
    ...context,
    items: { answerable: answerable.length, unanswerable: unanswerable.length },
    methods,
    refusal,
    bySet,
    fusionWhatIf,
    fusionReproductionMismatches,
    sweep,
    answers,
  };
}

function renderAnswers(a: NonNullable<EvalReport['answers']>): string[] {
  const o = a.outcomes;
  const ofA = (n: number) => `${n}/${a.answerable}`;
  return [
    `Answer quality (model: ${a.model}; product path; judged lexically against each item's ` +
      `evidence and the cited passages, see answerJudge.ts):`,
    '',
    table(
      ['measure', 'value'],
      [
        [
          'answerable: correct (evidence in answer, gold page cited, every citation supported)',
          ofA(o.correct),
        ],
        [
          'answerable: correct but with an unsupported citation',
          ofA(o.correct_with_unsupported_citation),
        ],
        [
          '**citation error: good answer, wrong source**',
          ofA(a.goodAnswerWrongSource),
        ],
        [
          'answerable: gold page cited, answer lacks the evidence',
          ofA(o.right_source_incomplete_answer),
        ],
        [
          'answerable: wrong answer (no evidence, no gold source)',
          ofA(o.wrong_answer),
        ],
        [
          'answerable: not in the knowledge base (false refusal)',
          ofA(o.false_refusal),
        ],
        ['answerable: evidence only', ofA(o.evidence_only)],
        [
          '**citation error: cited source does not contain the claim** (citations)',
          `${a.unsupportedCitations}/${a.judgedCitations} judged`,
        ],
        [
          'answers with at least one unsupported citation',
          String(a.answersWithUnsupportedCitation),
        ],
        [
          'answered with a gold page sent but not cited',
          String(a.goldSentNotCited),
        ],
        [
          'unanswerable: refused (not in KB or evidence only)',
          `${o.correct_refusal}/${a.unanswerable}`,
        ],
        [
          'unanswerable: answered',
          `${o.answered_unanswerable}/${a.unanswerable}`,
        ],
        [
          'answer step p50 / p95 ms',
          `${a.latencyMs.p50.toFixed(0)} / ${a.latencyMs.p95.toFixed(0)}`,
        ],
      ],
    ),
  ];
}

const evidenceRule = (p: ProductSettings) =>
  p.evidenceModel
    ? `fitted evidence model, cutoff ${p.evidenceModel.cutoff.toFixed(3)} (${
        p.evidenceModel.fittedOn
      })`
    : `minSimilarity ${p.thresholds.minSimilarity}, minCoverage ${p.thresholds.minCoverage}`;

const pct = (x: number) => `${(100 * x).toFixed(1)}`;
const f3 = (x: number) => x.toFixed(3);

function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map(r => `| ${r.join(' | ')} |`),
  ].join('\n');
}

/** Hybrid ranking and product-path refusal by evaluation set and language, as a table. */
export function renderBySet(bySet: EvalReport['bySet']): string {
  const setRow = (name: string, g: GroupSummary) => [
    name,
    `${g.answerable.n} / ${g.unanswerable.n}`,
    pct(g.ranking.recall['@1']),
    pct(g.ranking.recall['@5']),
    pct(g.ranking.recall['@10']),
    f3(g.ranking.mrr),
    `${g.unanswerable.refused}/${g.unanswerable.n} = ${pct(
      g.unanswerable.refusalRate,
    )}`,
    `${g.answerable.refused}/${g.answerable.n} = ${pct(
      g.answerable.falseRefusalRate,
    )}`,
  ];
  return table(
    [
      'set',
      'answerable / unanswerable',
      'R@1',
      'R@5',
      'R@10',
      'MRR',
      'refused unanswerable %',
      'false refusal %',
    ],
    Object.entries(bySet).flatMap(([name, s]) => [
      setRow(`**${name}**`, s),
      ...Object.entries(s.byLang).map(([lang, g]) =>
        setRow(`${name} ${lang}`, g),
      ),
    ]),
  );
}

export function renderMarkdown(report: EvalReport): string {
  const out: string[] = [];
  out.push(`### Retrieval evaluation (${report.corpora.join(', ')})`);
  out.push('');
  out.push(
    `Embedder: \`${report.embedder.modelId}\` (${report.embedder.kind}, ` +
      `${report.embedder.dimension} dimensions) — ${report.embedder.note}`,
  );
  out.push(
    `Questions: ${report.items.answerable} answerable, ${report.items.unanswerable} unanswerable.`,
  );
  out.push('');
  out.push(
    'Page-level, relevance filter off; recall@k = share of questions with a gold page in the top ' +
      'k pages; MRR@10.',
  );
  out.push('');
  out.push(
    table(
      ['method', 'n', 'R@1', 'R@5', 'R@10', 'MRR', 'p50 ms', 'p95 ms'],
      methodsIn(report).map(m => {
        const s = report.methods[m];
        return [
          m,
          String(s.overall.n),
          pct(s.overall.recall['@1']),
          pct(s.overall.recall['@5']),
          pct(s.overall.recall['@10']),
          f3(s.overall.mrr),
          s.latencyMs.p50.toFixed(0),
          s.latencyMs.p95.toFixed(0),
        ];
      }),
    ),
  );
  for (const [title, key] of [
    ['kind', 'byKind'],
    ['language', 'byLang'],
    ['corpus', 'byCorpus'],
  ] as const) {
    const groups = Object.keys(report.methods[METHODS[0]][key]);
    const measured = methodsIn(report);
    out.push('');
    out.push(`Recall@5 / MRR by ${title}:`);
    out.push('');
    out.push(
      table(
        [title, 'n', ...measured],
        groups.map(g => [
          g,
          String(report.methods[METHODS[0]][key][g].n),
          ...measured.map(m => {
            const s = report.methods[m][key][g];
            return `${pct(s.recall['@5'])} / ${f3(s.mrr)}`;
          }),
        ]),
      ),
    );
  }
  out.push('');
  out.push(
    'By evaluation set and language (hybrid ranking; refusal on the product path):',
  );
  out.push('');
  out.push(renderBySet(report.bySet));
  const r = report.refusal;
  out.push('');
  out.push(
    `Refusal on the product path (hybrid, k=${report.product.k}, ${
      report.product.fusion === 'scores'
        ? 'score fusion'
        : `RRF weights vector ${
            report.product.weights?.vector ?? 1
          } / keyword ${report.product.weights?.keyword ?? 1}`
    }, ${evidenceRule(report.product)}):`,
  );
  out.push('');
  out.push(
    table(
      ['measure', 'value'],
      [
        [
          'unanswerable refused (accuracy)',
          `${r.unanswerable.refused}/${r.unanswerable.n} = ${pct(
            r.unanswerable.accuracy,
          )}%`,
        ],
        [
          'answerable refused (false refusal)',
          `${r.answerable.refused}/${r.answerable.n} = ${pct(
            r.answerable.falseRefusalRate,
          )}%`,
        ],
        [
          'answerable with a gold page in the kept top 5 pages',
          `${pct(r.answerable.goldKeptAt5)}%`,
        ],
        ...Object.entries(r.byKind).map(([k, v]) => [
          `refused: ${k}`,
          `${v.refused}/${v.n}`,
        ]),
      ],
    ),
  );
  out.push('');
  out.push(
    'Threshold sweep (approximate, best evidence among the top 40 fused candidates): refusal ' +
      'accuracy / false-refusal rate, %.',
  );
  out.push('');
  const sims = [...new Set(report.sweep.map(s => s.minSimilarity))];
  const covs = [...new Set(report.sweep.map(s => s.minCoverage))];
  out.push(
    table(
      ['minSimilarity \\ minCoverage', ...covs.map(String)],
      sims.map(s => [
        String(s),
        ...covs.map(c => {
          const p = report.sweep.find(
            x => x.minSimilarity === s && x.minCoverage === c,
          )!;
          return `${pct(p.refusalAccuracy)} / ${pct(p.falseRefusalRate)}`;
        }),
      ]),
    ),
  );
  out.push('');
  out.push(
    'Fusion diagnostics: the same vector and keyword top-40 lists fused with weighted RRF ' +
      `(k=60, keyword weight ${report.product.weights?.keyword ?? 1}). ` +
      `The product's weight, w_vector=${
        report.product.weights?.vector ?? 1
      }, ` +
      `reproduces hybrid's RRF order without boosts ` +
      `(${report.fusionReproductionMismatches.length} mismatching items).`,
  );
  out.push('');
  const langs = Object.keys(
    Object.values(report.fusionWhatIf)[0]?.byLang ?? {},
  );
  out.push(
    table(
      [
        'fusion',
        'R@1',
        'R@5',
        'R@10',
        'MRR',
        ...langs.map(l => `${l} R@5 / MRR`),
      ],
      Object.entries(report.fusionWhatIf).map(([k, v]) => [
        k,
        pct(v.overall.recall['@1']),
        pct(v.overall.recall['@5']),
        pct(v.overall.recall['@10']),
        f3(v.overall.mrr),
        ...langs.map(
          l => `${pct(v.byLang[l].recall['@5'])} / ${f3(v.byLang[l].mrr)}`,
        ),
      ]),
    ),
  );
  if (report.answers) {
    out.push('');
    out.push(...renderAnswers(report.answers));
  }
  out.push('');
  out.push(
    `Timings (s): ${Object.entries(report.timings)
      .map(([k, v]) => `${k} ${v.toFixed(1)}`)
      .join(', ')}`,
  );
  return out.join('\n');
}
