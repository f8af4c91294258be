/*
 * Written by test/eval/fitEvidenceModel.ts (decision record 0009); do not edit by hand.
 * Fitted evidence models per embedding model kind; a kind without one uses the thresholds.
 */
import type { EmbedderKind } from '../embedding';
import type { EvidenceModel } from './evidence';

export const FITTED_EVIDENCE_MODELS: Partial<Record<EmbedderKind, EvidenceModel>> = {
  "hashing-fallback": {
    "features": [
      "coverageTop",
      "coverageMax5",
      "coverageMax",
      "similarityTop",
      "similarityMax",
      "keywordMargin",
      "keywordTopInVector",
      "overlap10",
      "fusedTop",
      "fusedMargin",
      "missingShare",
      "corrected",
      "logTokens",
      "howQuestion",
      "yesNoQuestion",
      "uncoveredMaxIdf",
      "uncoveredShare",
      "czech"
    ],
    "mean": [
      0.679715,
      0.715417,
      0.729091,
      0.296784,
      0.357503,
      0.136501,
      0.366705,
      0.266561,
      0.97547,
      0.0275365,
      0.0792408,
      0.066879,
      1.82211,
      0.302548,
      0.219745,
      0.644396,
      0.262486,
      0.474522
    ],
    "scale": [
      0.244092,
      0.219301,
      0.215121,
      0.119816,
      0.0986899,
      0.14556,
      0.400991,
      0.211296,
      0.0337753,
      0.053043,
      0.172504,
      0.249812,
      0.210118,
      0.459361,
      0.414074,
      0.400809,
      0.202593,
      0.49935
    ],
    "weights": [
      0.18172,
      0.45435,
      0.423419,
      0.0784532,
      0.378268,
      0.396026,
      -0.355839,
      -0.0458376,
      0.463618,
      0.0529465,
      -0.26287,
      -0.00689668,
      -0.13898,
      -1.15451,
      0.579984,
      0.0800642,
      -0.684398,
      0.211231
    ],
    "bias": 1.42823,
    "cutoff": 0.39474,
    "fittedOn": "items-train, 314 questions, hashing-fallback-v2-en+cs-384, 2026-12-05"
  }
};
