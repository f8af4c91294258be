import {
  PostingArena,
  PostingArrays,
  postingArrays,
} from '../database/postingList';

/*
 * BM25 over decoded posting lists, document at a time: one entity's lists are sorted by chunk
 * number, so each token's keys are merged, and the tokens then walked together, without a map
 * entry per posting (at 100k chunks a query's lists hold hundreds of thousands of postings).
 */

/** Union of one token's key lists (same entity): sorted chunk numbers with the largest tf. */
export function unionLists(
  lists: PostingArrays[],
  arena?: PostingArena,
): PostingArrays {
  if (lists.length === 1) return lists[0];
  if (lists.length === 2) return unionTwo(lists[0], lists[1], arena);
  const total = lists.reduce((n, l) => n + l.chunkNos.length, 0);
  const { chunkNos, tfs, lengths } = postingArrays(total, arena);
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
  return trim({ chunkNos, tfs, lengths }, n);
}

/** The first `n` entries of `lists` (no copy). */
const trim = (lists: PostingArrays, n: number): PostingArrays => ({
  chunkNos: lists.chunkNos.subarray(0, n),
  tfs: lists.tfs.subarray(0, n),
  lengths: lists.lengths.subarray(0, n),
});

/** unionLists of two lists (a token's lemma and stem keys: the usual case), one merge pass. */
function unionTwo(
  x: PostingArrays,
  y: PostingArrays,
  arena?: PostingArena,
): PostingArrays {
  const total = x.chunkNos.length + y.chunkNos.length;
  const { chunkNos, tfs, lengths } = postingArrays(total, arena);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < x.chunkNos.length || j < y.chunkNos.length) {
    const a = i < x.chunkNos.length ? x.chunkNos[i] : Infinity;
    const b = j < y.chunkNos.length ? y.chunkNos[j] : Infinity;
    if (a < b) {
      chunkNos[n] = a;
      tfs[n] = x.tfs[i];
      lengths[n++] = x.lengths[i++];
    } else if (b < a) {
      chunkNos[n] = b;
      tfs[n] = y.tfs[j];
      lengths[n++] = y.lengths[j++];
    } else {
      chunkNos[n] = a;
      tfs[n] = Math.max(x.tfs[i], y.tfs[j]);
      lengths[n++] = y.lengths[j++];
      i++;
    }
  }
  return trim({ chunkNos, tfs, lengths }, n);
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

interface ScoringOptions {
  k1: number;
  b: number;
  averageLength: number;
}

/**
 * BM25's length normalisation as `c1 + c2 · length`: every scoring path computes a posting's
 * contribution as (w · tf) / (tf + norm) with w = weight × idf × (k1 + 1), the same operations
 * in the same order, so a chunk scores the same to the last bit whichever path scored it.
 */
function lengthNorm({ k1, b, averageLength }: ScoringOptions) {
  return { c1: k1 * (1 - b), c2: (k1 * b) / averageLength };
}

/**
 * Chunk-number spans up to this size are scored term at a time through a slot table; wider ones
 * (an entity whose chunks are numbered far apart) document at a time.
 */
const MAX_SLOT_SPAN = 1 << 20;

/**
 * Slot table shared by every scorer (scoring never yields, so one call uses it at a time):
 * `slots[chunkNo - low]` is 1 + the chunk's index in the scorer's output, 0 when not seen yet.
 * All zero between calls: a call clears exactly the entries it set.
 */
let slots = new Int32Array(0);

/**
 * Scores one group of token lists (one entity; `lists[tok]` undefined when the token has no
 * list there) at a time into reused arrays: after `score(lists)`, `chunkNos` and `scores` hold
 * its matching chunks, `count` of them, in no particular order (callers rank by score and chunk
 * number). Term at a time, each posting added into its chunk's slot: an entity's chunks are
 * numbered in runs spread over the index (pages added later, bulk loads), so an array over the
 * whole span would be mostly empty to clear and sweep. Both paths add the tokens' contributions
 * in token order, starting from 0. Callers loop over the arrays themselves: a callback per chunk,
 * shared by callers, is slower than the scoring (at 100k chunks a question scores hundreds of
 * thousands).
 */
class GroupScorer {
  chunkNos = new Int32Array(0);
  scores = new Float64Array(0);
  count = 0;
  private readonly c1: number;
  private readonly c2: number;
  private readonly w: Float64Array;

  constructor(tokens: TokenWeight[], options: ScoringOptions) {
    ({ c1: this.c1, c2: this.c2 } = lengthNorm(options));
    this.w = Float64Array.from(tokens, t => t.weightedIdf * (options.k1 + 1));
  }

  score(lists: Array<PostingArrays | undefined>): void {
    let low = Infinity;
    let high = -Infinity;
    let postings = 0;
    for (const l of lists) {
      if (!l || l.chunkNos.length === 0) continue;
      low = Math.min(low, l.chunkNos[0]);
      high = Math.max(high, l.chunkNos[l.chunkNos.length - 1]);
      postings += l.chunkNos.length;
    }
    this.count = 0;
    if (postings === 0) return;
    if (this.chunkNos.length < postings) {
      this.chunkNos = new Int32Array(2 * postings);
      this.scores = new Float64Array(2 * postings);
    }
    const span = high - low + 1;
    if (span > MAX_SLOT_SPAN) {
      this.scoreDocuments(lists);
      return;
    }
    if (slots.length < span)
      slots = new Int32Array(Math.min(MAX_SLOT_SPAN, 2 * span));
    const { chunkNos, scores, c1, c2 } = this;
    let n = 0;
    for (let t = 0; t < lists.length; t++) {
      const l = lists[t];
      if (!l) continue;
      const w = this.w[t];
      const { tfs, lengths } = l;
      const nos = l.chunkNos;
      for (let i = 0; i < nos.length; i++) {
        const at = nos[i] - low;
        let slot = slots[at];
        if (slot === 0) {
          slot = ++n;
          slots[at] = slot;
          chunkNos[slot - 1] = nos[i];
          scores[slot - 1] = 0;
        }
        const tf = tfs[i];
        scores[slot - 1] += (w * tf) / (tf + (c1 + c2 * lengths[i]));
      }
    }
    for (let i = 0; i < n; i++) slots[chunkNos[i] - low] = 0;
    this.count = n;
  }

  /** Chunk numbers too far apart for the slot table: the lists merged document at a time. */
  private scoreDocuments(lists: Array<PostingArrays | undefined>) {
    const { c1, c2 } = this;
    const at = new Array<number>(lists.length).fill(0);
    let n = 0;
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
        score += (this.w[t] * tf) / (tf + (c1 + c2 * l.lengths[at[t]]));
        at[t]++;
      }
      this.chunkNos[n] = next;
      this.scores[n++] = score;
    }
    this.count = n;
  }
}

/**
 * The `keep` best chunks by BM25 over groups of token lists. Ties keep the lower chunk number;
 * the caller orders ties by chunk id afterwards.
 */
export function bestChunks(
  groups: Array<Array<PostingArrays | undefined>>,
  tokens: TokenWeight[],
  options: ScoringOptions & { keep: number },
): ScoredChunk[] {
  const { keep } = options;
  const heap: ScoredChunk[] = []; // the weakest kept chunk on top
  const weaker = (x: ScoredChunk, y: ScoredChunk) =>
    x.score < y.score || (x.score === y.score && x.chunkNo > y.chunkNo);
  if (keep <= 0) return [];
  const scorer = new GroupScorer(tokens, options);
  groups.forEach((lists, group) => {
    scorer.score(lists);
    const { chunkNos, scores, count } = scorer;
    for (let c = 0; c < count; c++) {
      const chunkNo = chunkNos[c];
      const score = scores[c];
      if (heap.length === keep) {
        const top = heap[0];
        // Most chunks lose to the weakest kept one: decided before anything is allocated.
        if (score < top.score || (score === top.score && chunkNo > top.chunkNo))
          continue;
      }
      keepBest(heap, keep, { chunkNo, score, group }, weaker);
    }
  });
  return heap.sort((x, y) => y.score - x.score || x.chunkNo - y.chunkNo);
}

/**
 * The `keep`-th best BM25 score over all groups (-Infinity with fewer matching chunks), and
 * each group's best: one walk, no array per chunk (MaxScore's early ranking).
 */
export function groupBounds(
  groups: Array<Array<PostingArrays | undefined>>,
  tokens: TokenWeight[],
  options: ScoringOptions & { keep: number },
): { floor: number; best: Float64Array } {
  const best = new Float64Array(groups.length).fill(-Infinity);
  const heap: number[] = []; // the `keep` best scores, the lowest on top
  const keep = Math.max(0, Math.floor(options.keep));
  const scorer = new GroupScorer(tokens, options);
  groups.forEach((lists, group) => {
    scorer.score(lists);
    const { scores, count } = scorer;
    for (let c = 0; c < count; c++) {
      const score = scores[c];
      if (score > best[group]) best[group] = score;
      if (keep === 0 || (heap.length === keep && score <= heap[0])) continue;
      keepBest(heap, keep, score, lower);
    }
  });
  return {
    floor: keep > 0 && heap.length === keep ? heap[0] : -Infinity,
    best,
  };
}

/**
 * The BM25 scores of given chunks (those in no list left out), each looked up in its own group's
 * lists (binary search): for
 * a few candidates, much less work than walking the lists. Contributions are added in token
 * order with the walk's expression, so a chunk scores the same to the last bit either way.
 */
export function scoreChunks(
  chunks: Array<{ chunkNo: number; group: number }>,
  groups: Array<Array<PostingArrays | undefined>>,
  tokens: TokenWeight[],
  options: ScoringOptions,
): ScoredChunk[] {
  const { c1, c2 } = lengthNorm(options);
  return chunks.flatMap(({ chunkNo, group }) => {
    let score = 0;
    let matched = false;
    groups[group].forEach((l, t) => {
      const i = listIndex(l, chunkNo);
      if (i < 0) return;
      const tf = l!.tfs[i];
      const w = tokens[t].weightedIdf * (options.k1 + 1);
      score += (w * tf) / (tf + (c1 + c2 * l!.lengths[i]));
      matched = true;
    });
    return matched ? [{ chunkNo, score, group }] : [];
  });
}

const lower = (x: number, y: number) => x < y;

/**
 * One binary min-heap for "the `keep` strongest items": `heap[0]` is the weakest kept. Adds
 * `item` while the heap is not full, else replaces the top unless `item` is weaker.
 */
function keepBest<T>(
  heap: T[],
  keep: number,
  item: T,
  weaker: (x: T, y: T) => boolean,
) {
  let i: number;
  if (heap.length < keep) {
    heap.push(item);
    // Sift up.
    for (i = heap.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!weaker(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
    return;
  }
  if (weaker(item, heap[0])) return;
  heap[0] = item;
  // Sift down.
  for (i = 0; ; ) {
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

/** Position of `chunkNo` in a sorted list (binary search), or -1. */
function listIndex(list: PostingArrays | undefined, chunkNo: number): number {
  if (!list) return -1;
  let lo = 0;
  let hi = list.chunkNos.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = list.chunkNos[mid];
    if (v === chunkNo) return mid;
    if (v < chunkNo) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Whether `chunkNo` is in a sorted list. */
export const listHas = (list: PostingArrays | undefined, chunkNo: number) =>
  listIndex(list, chunkNo) >= 0;
