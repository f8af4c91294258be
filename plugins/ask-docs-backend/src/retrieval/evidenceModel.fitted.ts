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
        'titleTop titleMax5 identifierMissing sentenceMax5',
    ),
    mean: [
      0.674924, 0.715623, 0.733014, 0.314493, 0.357899, 0.13296, 0.358792,
      0.263694, 0.679023, 0.130128, 0.0776479, 0.0828025, 1.82211, 0.302548,
      0.219745, 0.640025, 0.260651, 0.474522, 0.215478, 0.290437, 0.0191083,
      0.584027,
    ],
    scale: [
      0.246401, 0.22888, 0.212173, 0.113905, 0.0983146, 0.141385, 0.402001,
      0.211802, 0.116899, 0.134126, 0.171909, 0.275584, 0.210118, 0.459361,
      0.414074, 0.405443, 0.207054, 0.49935, 0.1965, 0.183711, 0.136906,
      0.217065,
    ],
    weights: [
      0.274079, 0.179624, 0.528383, 0.347291, 0.370029, 0.284682, -0.316386,
      -0.0320734, 0.263343, 0.0192727, -0.119011, -0.0649935, 0.0964745,
      -1.04188, 0.535061, 0.369002, -0.48071, 0.351571, 0.0259809, 0.233179,
      -0.6837, 0.79621,
    ],
    bias: 1.65042,
    cutoff: 0.20722,
    fittedOn:
      'items-train, 314 questions, hashing-fallback-v2-en+cs-384, 2026-12-05',
    modelId: 'hashing-fallback-v2-en+cs-384',
  },
};
