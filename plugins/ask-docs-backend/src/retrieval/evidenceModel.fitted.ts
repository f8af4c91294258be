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
        'logTokens uncoveredMaxIdf uncoveredShare czech titleTop titleMax5 ' +
        'identifierMissing sentenceMax5 nameMissing',
    ),
    mean: [
      0.674575, 0.716118, 0.733487, 0.315033, 0.358421, 0.132851, 0.380427,
      0.275796, 0.679037, 0.130564, 0.0776479, 0.089172, 1.82211, 0.636841,
      0.260014, 0.474522, 0.215992, 0.290704, 0.0191083, 0.585126, 0.0318471,
    ],
    scale: [
      0.246992, 0.228909, 0.212179, 0.11376, 0.0976741, 0.141474, 0.401373,
      0.205622, 0.117429, 0.133864, 0.171909, 0.284992, 0.210118, 0.406529,
      0.207546, 0.49935, 0.196122, 0.183297, 0.136906, 0.217552, 0.175593,
    ],
    weights: [
      0.258503, 0.251608, 0.248026, 0.129895, 0.150186, 0.134633, 0.0263399,
      0.121615, 0.244804, 0.088495, -0.174103, -0.0679355, 0.0399617, 0.0136374,
      -0.286568, -0.0219891, 0.0903171, 0.130994, -0.472113, 0.33397, -0.321532,
    ],
    bias: 0.93822,
    cutoff: 0.297325,
    fittedOn:
      'items-train, 314 questions, hashing-fallback-v2-en+cs-384, 2026-12-06',
    modelId: 'hashing-fallback-v2-en+cs-384',
  },
};
