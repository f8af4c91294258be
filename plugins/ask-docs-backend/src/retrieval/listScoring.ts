import { PostingArrays } from '../database/postingList';

/*
 * BM25 over decoded posting lists, document at a time: one entity's lists are sorted by chunk
 * number, so each token's keys are merged, and the tokens then walked together, without a map
 * entry per posting (at 100k chunks a query's lists hold hundreds of thousands of postings).
 */

/** Union of one token's key lists (same entity): sorted chunk numbers with the largest tf. */
export function unionLists(lists: PostingArrays[]): PostingArrays {
  if (lists.length === 1) return lists[0];
  const total = lists.reduce((n, l) => n + l.chunkNos.length, 0);
  const chunkNos = new Int32Array(total);
  const tfs = new Int32Array(total);
  const lengths = new Int32Array(total);
  const at = new Array<number>(lists.length).fill(0);
  let n = 0;
  for (;;) {
    let next = Infinity;
    for (let k = 0; k < lists.length; k++) {
      if (at[k] < lists[k].chunkNos.length)
        next = Math.min(next, lists[k].chunkNos[at[k]]);
    }
    if (next === Infinity) break;
    let tf = 0;
    let length = 0;
    for (let k = 0; k < lists.length; k++) {
      const l = lists[k];
      if (at[k] < l.chunkNos.length && l.chunkNos[at[k]] === next) {
        if (l.tfs[at[k]] > tf) tf = l.tfs[at[k]];
        length = l.lengths[at[k]];
        at[k]++;
      }
    }
    chunkNos[n] = next;
    tfs[n] = tf;
    lengths[n++] = length;
  }
  return {
    chunkNos: chunkNos.subarray(0, n),
    tfs: tfs.subarray(0, n),
    lengths: lengths.subarray(0, n),
  };
}

export interface TokenWeight {
  /** weight × idf of the token (0: not scored). */
  weightedIdf: number;
}

export interface ScoredChunk {
  chunkNo: number;
  score: number;
  /** Index of the entity group the chunk came from (for matched-token lookups). */
  group: number;
}

/**
 * The `keep` best chunks by BM25 over groups of token lists (one group per entity; `lists[tok]`
 * undefined when the token has no list there). Ties keep the lower chunk number; the caller
 * orders ties by chunk id afterwards.
 */
export function bestChunks(
  groups: Array<Array<PostingArrays | undefined>>,
  tokens: TokenWeight[],
  options: {
    k1: number;
    b: number;
    averageLength: number;
    keep: number;
    allowed?: Set<number>;
  },
): ScoredChunk[] {
  const { k1, b, averageLength, keep, allowed } = options;
  const heap: ScoredChunk[] = []; // min-heap by (score, -chunkNo): the weakest on top
  const weaker = (x: ScoredChunk, y: ScoredChunk) =>
    x.score < y.score || (x.score === y.score && x.chunkNo > y.chunkNo);
  const push = (c: ScoredChunk) => {
    if (heap.length === keep) {
      if (!weaker(heap[0], c)) return;
      heap[0] = c;
      siftDown(heap, 0, weaker);
    } else {
      heap.push(c);
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!weaker(heap[i], heap[parent])) break;
        [heap[i], heap[parent]] = [heap[parent], heap[i]];
        i = parent;
      }
    }
  };
  if (keep <= 0) return [];
  groups.forEach((lists, group) => {
    const at = new Array<number>(lists.length).fill(0);
    for (;;) {
      let next = Infinity;
      for (let t = 0; t < lists.length; t++) {
        const l = lists[t];
        if (l && at[t] < l.chunkNos.length)
          next = Math.min(next, l.chunkNos[at[t]]);
      }
      if (next === Infinity) break;
      let score = 0;
      for (let t = 0; t < lists.length; t++) {
        const l = lists[t];
        if (!l || at[t] >= l.chunkNos.length || l.chunkNos[at[t]] !== next)
          continue;
        const tf = l.tfs[at[t]];
        const norm = k1 * (1 - b + (b * l.lengths[at[t]]) / averageLength);
        score += (tokens[t].weightedIdf * (tf * (k1 + 1))) / (tf + norm);
        at[t]++;
      }
      if (!allowed || allowed.has(next)) push({ chunkNo: next, score, group });
    }
  });
  return heap.sort((x, y) => y.score - x.score || x.chunkNo - y.chunkNo);
}

function siftDown(
  heap: ScoredChunk[],
  start: number,
  weaker: (x: ScoredChunk, y: ScoredChunk) => boolean,
) {
  let i = start;
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < heap.length && weaker(heap[l], heap[m])) m = l;
    if (r < heap.length && weaker(heap[r], heap[m])) m = r;
    if (m === i) return;
    [heap[i], heap[m]] = [heap[m], heap[i]];
    i = m;
  }
}

/** Whether `chunkNo` is in a sorted list (binary search). */
export function listHas(list: PostingArrays | undefined, chunkNo: number) {
  if (!list) return false;
  let lo = 0;
  let hi = list.chunkNos.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = list.chunkNos[mid];
    if (v === chunkNo) return true;
    if (v < chunkNo) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
