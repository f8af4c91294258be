import { IndexedChunk } from '@askdocs/plugin-ask-docs-common';

/** A chunk as `ask_docs_chunks` keeps it: the url is the document's, joined when read. */
export type ChunkRow = Omit<IndexedChunk, 'url'> & {
  /** Analysed tokens of section path and text (BM25 length normalisation). */
  termCount: number;
};

/**
 * The `ask_docs_chunks` columns of a chunk. Everything that writes chunk rows (the store, test
 * fixtures, the benchmark's bulk loader) goes through here, so no copy of the mapping drifts.
 */
export function chunkColumns(c: ChunkRow) {
  return {
    chunk_id: c.chunkId,
    document_id: c.documentId,
    entity_ref: c.entityRef,
    ordinal: c.ordinal,
    title: c.title,
    section_path: c.sectionPath,
    anchor: c.anchor,
    char_start: c.charStart,
    char_end: c.charEnd,
    text: c.text,
    content_hash: c.contentHash,
    revision: c.revision,
    lang: c.lang,
    term_count: c.termCount,
  };
}
