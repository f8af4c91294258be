/*
 * Page-level retrieval metrics. A question is a hit at k when any of its gold pages is among the
 * first k distinct pages retrieved (gold lists name alternatives, not pages that all must be
 * found), so "recall@k" here is the share of questions answered by the top k pages.
 */

export const RECALL_AT = [1, 5, 10] as const;
/** Reciprocal rank counts pages up to this depth (MRR@10). */
export const MRR_DEPTH = 10;

/** Distinct page keys in order of their first chunk. */
export function rankPages(chunkPageKeys: string[]): string[] {
  return Array.from(new Set(chunkPageKeys));
}

/** 1-based rank of the first gold page, or undefined when none is within `depth`. */
export function firstGoldRank(
  pages: string[],
  gold: Set<string>,
  depth = MRR_DEPTH,
): number | undefined {
  const i = pages.slice(0, depth).findIndex(p => gold.has(p));
  return i < 0 ? undefined : i + 1;
}

export interface RankingSummary {
  n: number;
  recall: Record<`@${(typeof RECALL_AT)[number]}`, number>;
  mrr: number;
}

export function summarizeRanks(
  ranks: Array<number | undefined>,
): RankingSummary {
  const n = ranks.length;
  const share = (k: number) =>
    n === 0 ? 0 : ranks.filter(r => r !== undefined && r <= k).length / n;
  return {
    n,
    recall: { '@1': share(1), '@5': share(5), '@10': share(10) },
    mrr:
      n === 0
        ? 0
        : ranks.reduce<number>((s, r) => s + (r === undefined ? 0 : 1 / r), 0) /
          n,
  };
}

/** Groups values by a key, keeping first-seen order of the keys. */
export function groupBy<T>(
  items: T[],
  key: (item: T) => string,
): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)!.push(item);
  }
  return groups;
}

/** Latency percentile (nearest rank) in the unit of the input. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(
    sorted.length - 1,
    Math.max(0, Math.ceil((p / 100) * sorted.length) - 1),
  );
  return sorted[i];
}
