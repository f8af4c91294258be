import {
  decodeKeyIds,
  decodePostingArrays,
  decodePostings,
  encodeKeyIds,
  encodePostings,
  PostingArena,
} from './postingList';

describe('posting list bytes', () => {
  it('round-trips postings in chunk order, whatever order they were given in', () => {
    const postings = [
      { chunkNo: 300_000, tf: 2, length: 180 },
      { chunkNo: 7, tf: 1, length: 3 },
      { chunkNo: 128, tf: 130, length: 16_384 },
    ];
    const bytes = encodePostings(postings);
    expect(bytes[0]).toBe(1);
    expect(decodePostings(bytes)).toEqual(
      [...postings].sort((a, b) => a.chunkNo - b.chunkNo),
    );
  });

  it('takes a few bytes per posting when chunk numbers are close', () => {
    const postings = Array.from({ length: 1000 }, (_, i) => ({
      chunkNo: 50 + i * 3,
      tf: 1 + (i % 3),
      length: 100 + (i % 20),
    }));
    const bytes = encodePostings(postings);
    expect(bytes.length).toBeLessThanOrEqual(1 + 1000 * 3);
    expect(decodePostings(bytes)).toEqual(postings);
  });

  it('reads the int4 format the SQL backfill writes', () => {
    const fixed = Buffer.alloc(1 + 24);
    [9, 2, 40, 12, 1, 7].forEach((n, i) => fixed.writeInt32BE(n, 1 + i * 4));
    expect(decodePostings(fixed)).toEqual([
      { chunkNo: 9, tf: 2, length: 40 },
      { chunkNo: 12, tf: 1, length: 7 },
    ]);
    const ids = Buffer.alloc(1 + 8);
    ids.writeInt32BE(3, 1);
    ids.writeInt32BE(70_000, 5);
    expect(decodeKeyIds(ids)).toEqual([3, 70_000]);
  });

  it('round-trips key ids as a sorted set', () => {
    expect(decodeKeyIds(encodeKeyIds([900, 3, 3, 70_000]))).toEqual([
      3, 900, 70_000,
    ]);
    expect(decodeKeyIds(encodeKeyIds([]))).toEqual([]);
    expect(decodeKeyIds(null)).toEqual([]);
  });

  it('refuses what it cannot represent or read, instead of guessing', () => {
    expect(() => encodePostings([{ chunkNo: -1, tf: 1, length: 1 }])).toThrow(
      /cannot encode/,
    );
    expect(() => encodePostings([{ chunkNo: 1, tf: 1.5, length: 1 }])).toThrow(
      /cannot encode/,
    );
    expect(() =>
      encodePostings([
        { chunkNo: 4, tf: 1, length: 1 },
        { chunkNo: 4, tf: 2, length: 1 },
      ]),
    ).toThrow(/twice/);
    expect(() => decodePostings(Buffer.from([7, 1, 1, 1]))).toThrow(
      /unknown format/,
    );
    expect(() => decodePostings(Buffer.from([1, 5, 1, 0x80]))).toThrow(
      /truncated varint/,
    );
    expect(() => decodePostings(Buffer.from([1, 5, 1]))).toThrow(
      /incomplete entry/,
    );
    expect(() => decodePostings(Buffer.from([0, 0, 0, 1]))).toThrow(
      /truncated int4/,
    );
  });

  it('decodes into typed arrays, with or without a matching count', () => {
    const postings = [
      { chunkNo: 3, tf: 1, length: 9 },
      { chunkNo: 900, tf: 4, length: 300 },
    ];
    const bytes = encodePostings(postings);
    const expected = {
      chunkNos: Int32Array.from([3, 900]),
      tfs: Int32Array.from([1, 4]),
      lengths: Int32Array.from([9, 300]),
    };
    expect(decodePostingArrays(bytes, 2)).toEqual(expected);
    // A stale count (df) does not lose or invent entries.
    expect(decodePostingArrays(bytes, 1)).toEqual(expected);
    expect(decodePostingArrays(bytes, 5)).toEqual(expected);
    expect(decodePostingArrays(bytes)).toEqual(expected);
    expect(() => decodePostingArrays(Buffer.from([1, 5, 1]), 1)).toThrow(
      /incomplete entry/,
    );
    // A varint cut off inside an entry the count expects is refused, not read as a number.
    expect(() => decodePostingArrays(Buffer.from([1, 5, 1, 0x80]), 1)).toThrow(
      /truncated varint/,
    );
  });

  it('decodes many lists into one arena without one list overwriting another', () => {
    const arena = new PostingArena(8); // small blocks: lists also span new blocks
    const lists = [3, 1, 12, 5, 7].map((n, k) =>
      Array.from({ length: n }, (_, i) => ({
        chunkNo: 100 * k + i + 1,
        tf: k + 1,
        length: i + 10,
      })),
    );
    const decoded = lists.map(l =>
      decodePostingArrays(encodePostings(l), l.length, arena),
    );
    decoded.forEach((d, k) => {
      expect([...d.chunkNos]).toEqual(lists[k].map(p => p.chunkNo));
      expect([...d.tfs]).toEqual(lists[k].map(p => p.tf));
      expect([...d.lengths]).toEqual(lists[k].map(p => p.length));
    });
    // Fresh arrays are zeroed, and writing one leaves the others as they were.
    const fresh = arena.take(4);
    expect([...fresh.chunkNos, ...fresh.tfs, ...fresh.lengths]).toEqual(
      new Array(12).fill(0),
    );
    fresh.chunkNos.fill(-1);
    fresh.tfs.fill(-1);
    fresh.lengths.fill(-1);
    decoded.forEach((d, k) =>
      expect([...d.lengths]).toEqual(lists[k].map(p => p.length)),
    );
  });

  it('reuses released blocks zeroed: no list of one question shows in the next', () => {
    const first = new PostingArena();
    const taken = first.take(1000);
    taken.chunkNos.fill(7);
    taken.tfs.fill(7);
    taken.lengths.fill(7);
    first.release();
    const next = new PostingArena().take(1000);
    // The same memory (the block was reused), but none of the first question's values.
    expect(next.chunkNos.buffer).toBe(taken.chunkNos.buffer);
    expect([...next.chunkNos, ...next.tfs, ...next.lengths]).toEqual(
      new Array(3000).fill(0),
    );
    // A block of another size is never shared.
    const small = new PostingArena(8);
    small.take(4).chunkNos.fill(9);
    small.release();
    expect(new PostingArena().take(4).chunkNos.buffer).not.toBe(
      taken.chunkNos.buffer,
    );
  });
});
