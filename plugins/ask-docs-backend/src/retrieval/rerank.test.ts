import type { Reranker } from '../embedding/reranker';
import { rerankChunks, rerankPassage } from './rerank';
import type { RankedChunk } from './retriever';

function chunk(id: string, i: number): RankedChunk {
  return {
    chunkId: id,
    title: `Page ${id}`,
    sectionPath: `Page ${id} › Section`,
    text: `text of ${id}`,
    rrf: 1 - i / 100,
    rank: i + 1,
  } as RankedChunk;
}

const fused = ['a', 'b', 'c', 'd', 'e'].map(chunk);

/** Scores passages from a table keyed by chunk id (read back from the passage text). */
function tableReranker(
  scores: Record<string, number>,
  candidates: number,
): Reranker & { seen: string[][] } {
  const seen: string[][] = [];
  return {
    modelId: 'test/table',
    candidates,
    seen,
    async score(_question, passages) {
      seen.push(passages);
      return passages.map(p => scores[/text of (\w+)/.exec(p)![1]] ?? 0);
    },
  };
}

const ids = (chunks: RankedChunk[]) => chunks.map(c => c.chunkId);
const noError = (e: Error) => {
  throw e;
};

describe('rerankChunks', () => {
  it(`reorders the top N by score, leaves the rest below in fused order and \
renumbers`, async () => {
    const r = tableReranker({ a: 0, b: 1, c: 5, d: 9, e: 99 }, 3);
    const { chunks, record } = await rerankChunks(fused, 'q', r, 10, noError);
    // d and e score higher than every top-3 chunk but were not rescored: they stay below.
    expect(ids(chunks)).toEqual(['c', 'b', 'a', 'd', 'e']);
    expect(chunks.map(c => c.rank)).toEqual([1, 2, 3, 4, 5]);
    expect(r.seen).toHaveLength(1);
    expect(r.seen[0]).toHaveLength(3);
    expect(record).toEqual({
      modelId: 'test/table',
      status: 'reranked',
      scores: [
        { chunkId: 'a', fusedRank: 1, score: 0 },
        { chunkId: 'b', fusedRank: 2, score: 1 },
        { chunkId: 'c', fusedRank: 3, score: 5 },
      ],
    });
    // The input is not changed (the fused result stays as retrieve() returned it).
    expect(ids(fused)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(fused.map(c => c.rank)).toEqual([1, 2, 3, 4, 5]);
  });

  it('keeps the fused order among equal scores and cuts to k', async () => {
    const r = tableReranker({ a: 1, b: 2, c: 2, d: 0 }, 4);
    const { chunks } = await rerankChunks(fused, 'q', r, 2, noError);
    expect(ids(chunks)).toEqual(['b', 'c']);
    expect(chunks.map(c => c.rank)).toEqual([1, 2]);
  });

  it('never adds a chunk: an empty list stays empty and one chunk is not scored', async () => {
    const r = tableReranker({}, 20);
    const none = await rerankChunks([], 'q', r, 8, noError);
    expect(none.chunks).toEqual([]);
    const one = await rerankChunks([fused[0]], 'q', r, 8, noError);
    expect(ids(one.chunks)).toEqual(['a']);
    expect(one.record.status).toBe('skipped');
    expect(r.seen).toEqual([]);
  });

  it.each([
    ['throws', () => Promise.reject(new Error('onnx session gone'))],
    ['returns too few scores', () => Promise.resolve([1])],
    ['returns NaN', () => Promise.resolve([NaN, 1, 2])],
  ])(
    'keeps the fused order when the reranker %s',
    async (_name, score: () => Promise<number[]>) => {
      const errors: Error[] = [];
      const { chunks, record } = await rerankChunks(
        fused,
        'q',
        { modelId: 'm', candidates: 3, score },
        4,
        e => errors.push(e),
      );
      expect(ids(chunks)).toEqual(['a', 'b', 'c', 'd']);
      expect(chunks.map(c => c.rank)).toEqual([1, 2, 3, 4]);
      expect(record.status).toBe('failed');
      expect(record.scores).toEqual([]);
      expect(errors).toHaveLength(1);
      expect(record.error).toBe(errors[0].message);
    },
  );

  it('reads the section path and the text, or the title without a path', () => {
    expect(rerankPassage(fused[0])).toBe('Page a › Section\ntext of a');
    expect(
      rerankPassage({ title: 'Runbook', sectionPath: '', text: 'Restart it.' }),
    ).toBe('Runbook\nRestart it.');
  });
});
