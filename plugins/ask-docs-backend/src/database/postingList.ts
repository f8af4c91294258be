/*
 * The byte formats of the keyword index (migration 0006, decision record 0011).
 *
 * A posting list holds, for one key and one entity, the entity's chunks containing the key:
 * (chunk number, tf, chunk length), sorted by chunk number. A chunk's key list holds the key ids
 * of its postings, so a rewrite knows which lists to take it out of.
 *
 * The first byte says the format:
 * - 0: big-endian int4 values, as PostgreSQL's `int4send` writes them (the migration's backfill
 *   builds lists in SQL);
 * - 1: unsigned LEB128 varints, numbers delta-coded against the previous entry (what the store
 *   writes: about 3 bytes a posting instead of 12).
 */

/** The format bytes above. */
const FIXED = 0;
const VARINT = 1;

/** One chunk in a key's posting list. */
export interface Posting {
  chunkNo: number;
  tf: number;
  /** The chunk's length in tokens (BM25), kept beside tf so scoring needs no chunk lookup. */
  length: number;
}

function pushVarint(out: number[], value: number) {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new Error(`posting list: cannot encode ${value}`);
  }
  let v = value;
  while (v >= 0x80) {
    out.push(v % 0x80 | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

/** Reads varints (format 1) or int4s (format 0) from `bytes` after the format byte. */
function readNumbers(bytes: Uint8Array): number[] {
  if (bytes.length === 0) return [];
  const numbers: number[] = [];
  if (bytes[0] === FIXED) {
    if ((bytes.length - 1) % 4 !== 0) {
      throw new Error('posting list: truncated int4 data');
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    for (let i = 1; i < bytes.length; i += 4) numbers.push(view.getInt32(i));
    return numbers;
  }
  if (bytes[0] !== VARINT) {
    throw new Error(`posting list: unknown format ${bytes[0]}`);
  }
  if (!eachVarint(bytes, v => void numbers.push(v))) {
    throw new Error('posting list: truncated varint');
  }
  return numbers;
}

/**
 * Calls `visit` with each varint after the format byte, until it returns false. Returns whether
 * every varint was complete and visited.
 */
function eachVarint(
  bytes: Uint8Array,
  visit: (value: number) => boolean | void,
): boolean {
  let value = 0;
  let scale = 1;
  for (let i = 1; i < bytes.length; i++) {
    const b = bytes[i];
    value += (b & 0x7f) * scale;
    if (b & 0x80) {
      scale *= 0x80;
      continue;
    }
    if (visit(value) === false) return false;
    value = 0;
    scale = 1;
  }
  return scale === 1;
}

/** Encodes postings (any order; sorted here) in format 1. */
export function encodePostings(postings: Posting[]): Buffer {
  const sorted = [...postings].sort((a, b) => a.chunkNo - b.chunkNo);
  const out: number[] = [VARINT];
  let previous = 0;
  for (const p of sorted) {
    if (p.chunkNo <= previous && out.length > 1) {
      throw new Error(`posting list: chunk ${p.chunkNo} twice`);
    }
    pushVarint(out, p.chunkNo - previous);
    pushVarint(out, p.tf);
    pushVarint(out, p.length);
    previous = p.chunkNo;
  }
  return Buffer.from(out);
}

export function decodePostings(bytes: Uint8Array): Posting[] {
  const n = readNumbers(bytes);
  if (n.length % 3 !== 0) throw new Error('posting list: incomplete entry');
  const delta = bytes[0] === VARINT;
  const postings: Posting[] = [];
  let chunkNo = 0;
  for (let i = 0; i < n.length; i += 3) {
    chunkNo = delta ? chunkNo + n[i] : n[i];
    postings.push({ chunkNo, tf: n[i + 1], length: n[i + 2] });
  }
  return postings;
}

/** Encodes a set of key ids (format 1, ascending, delta-coded). */
export function encodeKeyIds(keyIds: Iterable<number>): Buffer {
  const sorted = Array.from(new Set(keyIds)).sort((a, b) => a - b);
  const out: number[] = [VARINT];
  let previous = 0;
  for (const id of sorted) {
    pushVarint(out, id - previous);
    previous = id;
  }
  return Buffer.from(out);
}

export function decodeKeyIds(bytes: Uint8Array | null | undefined): number[] {
  if (!bytes) return [];
  const n = readNumbers(bytes);
  if (bytes[0] !== VARINT) return n;
  let id = 0;
  return n.map(d => (id += d));
}

/** A decoded posting list as parallel typed arrays (no object per posting: lists are long). */
export interface PostingArrays {
  chunkNos: Int32Array;
  tfs: Int32Array;
  lengths: Int32Array;
}

/**
 * decodePostings into typed arrays. `count` (the row's df) sizes them; a list whose entries do
 * not match it is decoded the slow way rather than refused (the count only serves speed here).
 */
export function decodePostingArrays(
  bytes: Uint8Array,
  count?: number,
  arena?: PostingArena,
): PostingArrays {
  const fast =
    bytes.length > 0 && bytes[0] === VARINT && count !== undefined
      ? decodeCounted(bytes, count, arena)
      : undefined;
  if (fast) return fast;
  const list = decodePostings(bytes);
  return {
    chunkNos: Int32Array.from(list, p => p.chunkNo),
    tfs: Int32Array.from(list, p => p.tf),
    lengths: Int32Array.from(list, p => p.length),
  };
}

/** Postings in a standard block. */
const STANDARD_BLOCK = 1 << 16;
/**
 * Standard blocks given back by finished questions (PostingArena.release), for the next ones.
 * A block is about 0.8 MB outside V8's heap; allocating a few per question made the collector
 * run full collections of the whole heap for their sake.
 */
const freeBlocks: ArrayBuffer[] = [];
const MAX_FREE_BLOCKS = 16;

/**
 * Memory for many lists out of a few large buffers. A typed-array allocation costs
 * microseconds; a question at 100k chunks decodes and merges thousands of lists, so the lists
 * of one question share blocks, given back for reuse with `release()` when it is answered.
 */
export class PostingArena {
  private buffer = new ArrayBuffer(0);
  private capacity = 0;
  private used = 0;
  /** Standard-size blocks taken so far (what release() gives back). */
  private blocks: ArrayBuffer[] = [];

  constructor(private readonly blockPostings = STANDARD_BLOCK) {}

  /** Zeroed arrays for `size` postings (a block holds each array in its own third). */
  take(size: number): PostingArrays {
    if (size > this.capacity - this.used) {
      this.capacity = Math.max(this.blockPostings, size);
      this.buffer = this.newBlock();
      this.used = 0;
    }
    const at = 4 * this.used;
    const third = 4 * this.capacity;
    this.used += size;
    return {
      chunkNos: new Int32Array(this.buffer, at, size),
      tfs: new Int32Array(this.buffer, third + at, size),
      lengths: new Int32Array(this.buffer, 2 * third + at, size),
    };
  }

  /**
   * Gives the blocks back for other questions' lists. Every array taken from this arena is
   * then invalid: its memory will hold another question's lists.
   */
  release(): void {
    for (const block of this.blocks)
      if (freeBlocks.length < MAX_FREE_BLOCKS) freeBlocks.push(block);
    this.blocks = [];
    this.buffer = new ArrayBuffer(0);
    this.capacity = 0;
    this.used = 0;
  }

  private newBlock(): ArrayBuffer {
    const bytes = 12 * this.capacity;
    if (this.capacity !== STANDARD_BLOCK) return new ArrayBuffer(bytes);
    const reused = freeBlocks.pop();
    if (reused) new Uint8Array(reused).fill(0);
    const block = reused ?? new ArrayBuffer(bytes);
    this.blocks.push(block);
    return block;
  }
}

/** Zeroed arrays for `size` postings, from `arena` when given. */
export const postingArrays = (size: number, arena?: PostingArena) =>
  (arena ?? new PostingArena(0)).take(size);

function decodeCounted(
  bytes: Uint8Array,
  count: number,
  arena?: PostingArena,
): PostingArrays | undefined {
  const arrays = postingArrays(count, arena);
  const { chunkNos, tfs, lengths } = arrays;
  // One pass over the bytes, no call per number: a question decodes hundreds of thousands.
  // `field` is the entry's number being read: 0 chunk-number delta, 1 tf, 2 length.
  let n = 0;
  let field = 0;
  let value = 0;
  let scale = 1;
  let chunkNo = 0;
  for (let at = 1; at < bytes.length; at++) {
    const b = bytes[at];
    value += (b & 0x7f) * scale;
    if (b & 0x80) {
      scale *= 0x80;
      continue;
    }
    if (field === 0) {
      if (n === count) return undefined; // more entries than the count says
      chunkNos[n] = chunkNo += value;
      field = 1;
    } else if (field === 1) {
      tfs[n] = value;
      field = 2;
    } else {
      lengths[n++] = value;
      field = 0;
    }
    value = 0;
    scale = 1;
  }
  // Fewer entries, a last one incomplete, or a varint cut off: not what the count says.
  return n === count && field === 0 && scale === 1 ? arrays : undefined;
}
