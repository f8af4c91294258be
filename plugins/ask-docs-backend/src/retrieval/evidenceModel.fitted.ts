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
        'titleTop titleMax5 identifierMissing',
    ),
    mean: [
      0.674924, 0.715623, 0.733014, 0.314493, 0.358166, 0.13296, 0.366997,
      0.269108, 0.678884, 0.130091, 0.0776479, 0.0828025, 1.82211, 0.302548,
      0.219745, 0.640025, 0.260651, 0.474522, 0.215478, 0.290437, 0.0191083,
    ],
    scale: [
      0.246401, 0.22888, 0.212173, 0.113905, 0.0982316, 0.141385, 0.403669,
      0.212734, 0.117167, 0.13414, 0.171909, 0.275584, 0.210118, 0.459361,
      0.414074, 0.405443, 0.207054, 0.49935, 0.1965, 0.183711, 0.136906,
    ],
    weights: [
      0.407425, 0.294239, 0.550201, 0.345075, 0.458621, 0.273555, -0.215418,
      -0.123916, 0.424596, -0.0125806, -0.183238, -0.103177, 0.0195183,
      -1.03504, 0.559891, 0.282883, -0.51754, 0.313612, -0.0138448, 0.292926,
      -0.683077,
    ],
    bias: 1.59764,
    cutoff: 0.181446,
    fittedOn:
      'items-train, 314 questions, hashing-fallback-v2-en+cs-384, 2026-12-05',
    modelId: 'hashing-fallback-v2-en+cs-384',
  },
};
