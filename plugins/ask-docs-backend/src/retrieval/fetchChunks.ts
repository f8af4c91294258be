import { ChunkPassage } from '@askdocs/plugin-ask-docs-common';
import type { IndexReader } from '../database/IndexReader';
import type { RetrievalScope } from '../database/visibilityPredicate';

/** A visible chunk's passage, with the language its words were analysed in (retrieval only). */
export type VisiblePassage = ChunkPassage & { lang: string };

function withAnchor(url: string, anchor: string): string {
  if (!anchor || url.includes('#')) return url;
  return `${url}#${anchor}`;
}

/**
 * Chunks by id that the asker can see, in the order of `chunkIds`; ids that are not visible
 * (or no longer exist) are simply absent. For any chunk or snippet shown to a user.
 */
export async function fetchVisibleChunks(
  reader: IndexReader,
  chunkIds: string[],
  scope?: RetrievalScope,
): Promise<VisiblePassage[]> {
  if (chunkIds.length === 0) return [];
  const rows = await reader.chunkDetails(chunkIds, scope);
  const byId = new Map(rows.map(r => [r.chunkId, r]));
  return Array.from(new Set(chunkIds)).flatMap(id => {
    const row = byId.get(id);
    if (!row) return [];
    return [
      {
        chunkId: row.chunkId,
        documentId: row.documentId,
        entityRef: row.entityRef,
        title: row.title,
        sectionPath: row.sectionPath,
        anchor: row.anchor,
        url: withAnchor(row.documentUrl, row.anchor),
        text: row.text,
        revision: row.revision,
        contentHash: row.contentHash,
        lang: row.lang,
      },
    ];
  });
}
