/*
 * Written by test/eval/fitEvidenceModel.ts (decision record 0009); do not edit by hand.
 * Fitted evidence models per embedding model kind; a kind without one uses the thresholds.
 */
import type { EmbedderKind } from '../embedding';
import { featureNames, type EvidenceModel } from './evidence';

export const FITTED_EVIDENCE_MODELS: Partial<
  Record<EmbedderKind, EvidenceModel>
> = {
  'hashing-fallback': {
    features: featureNames(
      'coverageTop coverageMax5 coverageMax similarityTop similarityMax keywordMargin ' +
        'keywordTopInVector overlap10 fusedTop fusedMargin missingShare corrected ' +
        'logTokens howQuestion yesNoQuestion uncoveredMaxIdf uncoveredShare czech ' +
        'titleTop titleMax5 identifierMissing sentenceMax5 nameMissing',
    ),
    mean: [
      0.674924, 0.715623, 0.733014, 0.314493, 0.357814, 0.13296, 0.369961,
      0.269745, 0.679096, 0.130099, 0.0776479, 0.0828025, 1.82211, 0.302548,
      0.219745, 0.640025, 0.260651, 0.474522, 0.215478, 0.290437, 0.0191083,
      0.584027, 0.0318471,
    ],
    scale: [
      0.246401, 0.22888, 0.212173, 0.113905, 0.0984295, 0.141385, 0.402257,
      0.210569, 0.116841, 0.134134, 0.171909, 0.275584, 0.210118, 0.459361,
      0.414074, 0.405443, 0.207054, 0.49935, 0.1965, 0.183711, 0.136906,
      0.217065, 0.175593,
    ],
    weights: [
      0.22571, 0.252273, 0.358626, 0.185746, 0.219455, 0.189807, -0.0523882,
      0.00792409, 0.245185, 0.0705703, -0.089673, -0.104975, 0.0146373,
      -0.800603, 0.408894, 0.121189, -0.408925, 0.104462, 0.0979277, 0.216054,
      -0.547199, 0.490591, -0.394498,
    ],
    bias: 1.42001,
    cutoff: 0.20175,
    fittedOn:
      'items-train, 314 questions, hashing-fallback-v2-en+cs-384, 2026-12-05',
    modelId: 'hashing-fallback-v2-en+cs-384',
  },
};
