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
        'titleTop titleMax5',
    ),
    mean: [
      0.677992, 0.718479, 0.73306, 0.295524, 0.358162, 0.132873, 0.344949,
      0.258917, 1.00973, 0.0359842, 0.0776479, 0.066879, 1.82211, 0.302548,
      0.219745, 0.641464, 0.260098, 0.474522, 0.201544, 0.276633,
    ],
    scale: [
      0.239431, 0.218727, 0.212515, 0.122658, 0.0982033, 0.141471, 0.397804,
      0.216516, 0.0551077, 0.055668, 0.171909, 0.249812, 0.210118, 0.459361,
      0.414074, 0.401069, 0.202318, 0.49935, 0.195088, 0.1905,
    ],
    weights: [
      0.22536, 0.359876, 0.291502, 0.101834, 0.41579, 0.424881, -0.443621,
      -0.148368, 0.340187, 0.0106269, -0.261741, -0.133497, -0.0424708,
      -1.15603, 0.624998, 0.00437878, -0.708228, 0.242388, 0.333981, 0.245916,
    ],
    bias: 1.56354,
    cutoff: 0.154231,
    fittedOn:
      'items-train, 314 questions, hashing-fallback-v2-en+cs-384, 2026-12-05',
    modelId: 'hashing-fallback-v2-en+cs-384',
  },
};
