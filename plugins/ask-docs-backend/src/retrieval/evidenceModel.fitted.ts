/*
 * Written by test/eval/fitEvidenceModel.ts (decision record 0009); do not edit by hand.
 * Fitted evidence models per embedding model kind; a kind without one uses the thresholds.
 */
import type { EmbedderKind } from '../embedding';
import type { EvidenceModel } from './evidence';

export const FITTED_EVIDENCE_MODELS: Partial<
  Record<EmbedderKind, EvidenceModel>
> = {
  'hashing-fallback': {
    features: [
      'coverageTop',
      'coverageMax5',
      'coverageMax',
      'similarityTop',
      'similarityMax',
      'keywordMargin',
      'keywordTopInVector',
      'overlap10',
      'fusedTop',
      'fusedMargin',
      'missingShare',
      'corrected',
      'logTokens',
      'howQuestion',
      'yesNoQuestion',
      'uncoveredMaxIdf',
      'uncoveredShare',
      'czech',
      'titleTop',
      'titleMax5',
    ],
    mean: [
      0.676846, 0.718398, 0.73278, 0.296191, 0.358046, 0.132412, 0.356169,
      0.26465, 0.984963, 0.0288337, 0.0778906, 0.066879, 1.82211, 0.302548,
      0.219745, 0.642683, 0.260098, 0.474522, 0.20552, 0.277216,
    ],
    scale: [
      0.241105, 0.218092, 0.212876, 0.11916, 0.0983761, 0.141266, 0.400408,
      0.213834, 0.0371837, 0.0532324, 0.172404, 0.249812, 0.210118, 0.459361,
      0.414074, 0.399687, 0.201442, 0.49935, 0.202566, 0.19155,
    ],
    weights: [
      0.192699, 0.404908, 0.36693, 0.00987317, 0.403066, 0.429098, -0.362699,
      -0.105517, 0.320923, -0.0143467, -0.249304, -0.144013, -0.066972,
      -1.15997, 0.619195, -0.00486754, -0.659295, 0.214751, 0.290727, 0.318501,
    ],
    bias: 1.5621,
    cutoff: 0.324904,
    fittedOn:
      'items-train, 314 questions, hashing-fallback-v2-en+cs-384, 2026-12-05',
  },
};
