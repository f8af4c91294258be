export interface FusedItem {
  id: string;
  /** Sum over lists of 1 / (k + rank). */
  score: number;
  /** 1-based rank of the item in each input list, undefined where absent. */
  ranks: Array<number | undefined>;
}

export const DEFAULT_RRF_K = 60;

/**
 * Reciprocal Rank Fusion: each list contributes 1 / (k + rank) for the items it contains, so
 * an item ranked well by both retrievers beats one ranked first by only one. Ties are broken
 * by the best single rank, then by id, so the order is deterministic.
 */
export function reciprocalRankFusion(
  lists: string[][],
  options: { k?: number } = {},
): FusedItem[] {
  const k = options.k ?? DEFAULT_RRF_K;
  if (!(k >= 0) || !Number.isFinite(k)) throw new Error(`invalid RRF k ${k}`);
  const items = new Map<string, FusedItem>();
  lists.forEach((list, listIndex) => {
    const seen = new Set<string>();
    list.forEach((id, position) => {
      if (seen.has(id)) return; // a list that repeats an id counts it once, at its best rank
      seen.add(id);
      let item = items.get(id);
      if (!item) {
        item = { id, score: 0, ranks: lists.map(() => undefined) };
        items.set(id, item);
      }
      item.ranks[listIndex] = position + 1;
      item.score += 1 / (k + position + 1);
    });
  });
  const bestRank = (item: FusedItem) =>
    Math.min(...item.ranks.map(r => r ?? Infinity));
  return Array.from(items.values()).sort(
    (a, b) =>
      b.score - a.score ||
      bestRank(a) - bestRank(b) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}
