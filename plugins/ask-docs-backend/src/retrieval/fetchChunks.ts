import { ChunkPassage } from '@askdocs/plugin-ask-docs-common';
import { Knex } from 'knex';
import { Visibility } from '../permissions/visibility';
import { RetrievalScope, visibleChunkDetails } from './visibleChunks';

function withAnchor(url: string, anchor: string): string {
  if (!anchor || url.includes('#')) return url;
  return `${url}#${anchor}`;
}

/**
 * Chunks by id that the asker can see, in the order of `chunkIds`; ids that are not visible
 * (or no longer exist) are simply absent. For any chunk or snippet shown to a user.
 */
export async function fetchVisibleChunks(
  knex: Knex,
  visibility: Visibility,
  chunkIds: string[],
  scope?: RetrievalScope,
): Promise<ChunkPassage[]> {
  if (chunkIds.length === 0) return [];
  const rows: Array<Record<string, string>> = await visibleChunkDetails(
    knex,
    visibility,
    { ...scope, chunkIds },
  ).select(
    'c.chunk_id',
    'c.document_id',
    'c.entity_ref',
    'c.title',
    'c.section_path',
    'c.anchor',
    'c.document_url',
    'c.text',
    'c.revision',
    'c.content_hash',
  );
  const byId = new Map(rows.map(r => [r.chunk_id, r]));
  return Array.from(new Set(chunkIds)).flatMap(id => {
    const row = byId.get(id);
    if (!row) return [];
    return [
      {
        chunkId: row.chunk_id,
        documentId: row.document_id,
        entityRef: row.entity_ref,
        title: row.title,
        sectionPath: row.section_path,
        anchor: row.anchor,
        url: withAnchor(row.document_url, row.anchor),
        text: row.text,
        revision: row.revision,
        contentHash: row.content_hash,
      },
    ];
  });
}
