import { PageWrite, ReplacedDocument } from '../database/AskDocsStore';
import { PageWriter } from './pageWriter';

const MODEL = { modelId: 'm', dimension: 2 };
const page = (id: string) =>
  ({
    doc: { documentId: id },
    chunks: [],
    vectors: new Map(),
  } as unknown as PageWrite);
const result = (n: number): ReplacedDocument => ({
  chunksWritten: n,
  chunksDeleted: 0,
  chunksReanalysed: 0,
});

/** A store that records each call's document ids and fails any batch holding `bad`. */
function fakeStore(bad?: string) {
  const calls: string[][] = [];
  return {
    calls,
    async replaceDocuments(pages: PageWrite[]) {
      const ids = pages.map(p => p.doc.documentId);
      calls.push(ids);
      if (bad && ids.includes(bad)) throw new Error(`cannot write ${bad}`);
      return ids.map((_, i) => result(i + 1));
    },
  };
}

async function writeAll(writer: PageWriter, ids: string[]) {
  const outcome: Record<string, string> = {};
  for (const id of ids) {
    await writer.add(
      page(id),
      r => (outcome[id] = `ok ${r.chunksWritten}`),
      e => (outcome[id] = `failed: ${(e as Error).message}`),
    );
  }
  await writer.flush();
  return outcome;
}

describe('PageWriter', () => {
  it('writes pages in batches of the given size, each result to its own page', async () => {
    const store = fakeStore();
    const outcome = await writeAll(new PageWriter(store, MODEL, 2), [
      'a',
      'b',
      'c',
      'd',
      'e',
    ]);
    expect(store.calls).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(outcome).toEqual({
      a: 'ok 1',
      b: 'ok 2',
      c: 'ok 1',
      d: 'ok 2',
      e: 'ok 1',
    });
  });

  it('writes a failed batch again page by page, so only the bad page fails', async () => {
    const store = fakeStore('b');
    const outcome = await writeAll(new PageWriter(store, MODEL, 3), [
      'a',
      'b',
      'c',
    ]);
    expect(store.calls).toEqual([['a', 'b', 'c'], ['a'], ['b'], ['c']]);
    expect(outcome).toEqual({
      a: 'ok 1',
      b: 'failed: cannot write b',
      c: 'ok 1',
    });
  });

  it('reports a failed single page once, without writing it again', async () => {
    const store = fakeStore('a');
    const outcome = await writeAll(new PageWriter(store, MODEL, 1), ['a', 'b']);
    expect(store.calls).toEqual([['a'], ['b']]);
    expect(outcome).toEqual({ a: 'failed: cannot write a', b: 'ok 1' });
  });

  it('makes page tasks wait while two batches are being written', async () => {
    const release: Array<() => void> = [];
    const store = {
      replaceDocuments: (pages: PageWrite[]) =>
        new Promise<ReplacedDocument[]>(resolve =>
          release.push(() => resolve(pages.map(() => result(1)))),
        ),
    };
    const writer = new PageWriter(store, MODEL, 1);
    const noop = () => undefined;
    await writer.add(page('a'), noop, noop); // one batch in flight: no wait
    let queued = false;
    const second = writer.add(page('b'), noop, noop).then(() => {
      queued = true;
    });
    await new Promise(r => setTimeout(r, 20));
    expect(queued).toBe(false);
    release.shift()!();
    await new Promise(r => setTimeout(r, 20));
    release.shift()?.();
    await second;
    expect(queued).toBe(true);
    await writer.flush();
  });
});
