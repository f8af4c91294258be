import type { RetrievedChunk } from './types';

/** Builds a RetrievedChunk for tests; ids derive from document and section. */
export function chunk(
  partial: Partial<RetrievedChunk> &
    Pick<RetrievedChunk, 'title' | 'text' | 'rank'>,
): RetrievedChunk {
  const documentId = partial.documentId ?? `doc:${partial.title}`;
  const sectionPath = partial.sectionPath ?? partial.title;
  const anchor =
    partial.anchor ??
    sectionPath.split('›').pop()!.trim().toLowerCase().replace(/\s+/g, '-');
  return {
    chunkId: partial.chunkId ?? `${documentId}#${sectionPath}`,
    documentId,
    entityRef: partial.entityRef ?? 'component:default/service',
    sectionPath,
    anchor,
    url:
      partial.url ??
      `/docs/default/component/service/${encodeURIComponent(
        documentId,
      )}/#${anchor}`,
    revision: partial.revision ?? 'rev-1',
    contentHash: partial.contentHash ?? `hash:${documentId}:${sectionPath}`,
    score: partial.score ?? 1 / partial.rank,
    ...partial,
  };
}

/**
 * Chunks of pages that share `title` (ranked in order, text '.' unless given), which citation
 * labels must tell apart: one per [document id, entity ref, other fields].
 */
export function sameTitleChunks(
  title: string,
  rows: Array<[string, string, Partial<RetrievedChunk>?]>,
): RetrievedChunk[] {
  return rows.map(([documentId, entityRef, more], i) =>
    chunk({ title, documentId, entityRef, text: '.', rank: i + 1, ...more }),
  );
}
