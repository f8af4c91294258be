import { DEFAULT_MAX_CHUNK_CHARS, ParsedPage, sha256Hex } from './parsing';
import { PARSER_VERSION } from './parsing/parserVersion';

/**
 * What a page's chunks are made from besides its title (compared on its own): its sections as
 * parsed (keys, anchors, heading paths, text), the chunk size and the parser version. A page is
 * skipped only while this is unchanged: the same text under a renamed anchor still gets chunks
 * citing the new anchor. Stored as the document's content hash, no migration: documents written
 * before held the hash of the text alone, so after this upgrade (as after a new chunk size or
 * PARSER_VERSION) every page is chunked again once; it keeps its revision where its chunks'
 * texts come out the same (Ingester).
 */
export function pageSignature(
  page: ParsedPage,
  options: { maxChunkChars?: number; parserVersion?: number } = {},
): string {
  return sha256Hex(
    JSON.stringify({
      parser: options.parserVersion ?? PARSER_VERSION,
      maxChunkChars: options.maxChunkChars ?? DEFAULT_MAX_CHUNK_CHARS,
      sections: page.sections.map(s => [
        s.key,
        s.anchor,
        s.headingPath,
        s.level,
        s.heading,
        s.charStart,
        s.text,
      ]),
    }),
  );
}
