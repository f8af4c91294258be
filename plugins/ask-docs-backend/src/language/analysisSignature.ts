import { TOKENIZER_VERSION } from './tokenize';
import type { Analyzers } from './types';

/**
 * What the keyword postings of a document depend on: the tokenizer, the languages detection
 * chooses from (in order) and each analyzer's own signature (code version, dictionary hash,
 * degraded mode).
 * Ingestion stores it per document and re-analyses a document whose postings were made under a
 * different one, so queries are never analysed one way and postings another.
 */
export function analysisSignature(
  analyzers: Analyzers,
  languages: readonly string[] = analyzers.languages,
): string {
  return [
    `tokenize:${TOKENIZER_VERSION}`,
    ...languages.map(l => analyzers.get(l).signature),
  ].join('|');
}
