import { chunkSections } from './chunkSections';
import { chunkContentHash, documentIdFor } from './identity';
import { parseHtmlPage } from './parseHtmlPage';
import { splitSentences } from './sentences';
import { expectChunkInvariants } from './testUtils/invariants';
import { Chunk, ParsedPage } from './types';

/** Sentences of the form "Sentence <tag> number <i> has some words." */
function prose(tag: string, count: number): string {
  return Array.from(
    { length: count },
    (_, i) => `Sentence ${tag} number ${i} has some words in it.`,
  ).join(' ');
}

/** The test guide; `intro` replaces the first paragraph's text. */
function pageHtml(intro = prose('intro', 3)): string {
  return `<h1>Guide</h1>
    <p>${intro}</p>
    <h2 id="alpha">Alpha</h2><p>${prose('alpha', 60)}</p>
    <h3 id="alpha-sub">Alpha Sub</h3><p>${prose('sub', 5)}</p>
    <h2 id="empty">Only A Heading</h2>
    <h2 id="beta">Beta</h2><p>${prose(
      'beta',
      40,
    )}</p><pre><code>line one\nline two</code></pre>`;
}

function page(): ParsedPage {
  return parseHtmlPage(pageHtml());
}

describe('chunkSections', () => {
  const documentId = documentIdFor(
    'component:default/guide',
    'techdocs',
    'index.html',
  );

  it('respects sections, the size limit and sentence boundaries', () => {
    const p = page();
    const chunks = chunkSections(p, { documentId, maxChars: 300 });
    expectChunkInvariants(p, chunks, 300);
    // Alpha is long enough to need several chunks; each one is whole sentences.
    const alpha = chunks.filter(c => c.anchor === 'alpha');
    expect(alpha.length).toBeGreaterThan(5);
    for (const c of alpha) expect(c.text).toMatch(/\.$/);
    expect(alpha[0].text.startsWith('Alpha\n\nSentence alpha number 0')).toBe(
      true,
    );
    expect(alpha.map(c => c.indexInSection)).toEqual(alpha.map((_, i) => i));
  });

  it('labels chunks with the section path and title', () => {
    const chunks = chunkSections(page(), { documentId });
    const sub = chunks.find(c => c.anchor === 'alpha-sub')!;
    expect(sub.sectionPath).toBe('Guide › Alpha › Alpha Sub');
    expect(sub.sectionTitle).toBe('Alpha Sub');
    const top = chunks[0];
    expect(top.sectionPath).toBe('Guide');
    expect(top.sectionTitle).toBe('Guide');
  });

  it('makes no chunk for a section that is only a heading', () => {
    const chunks = chunkSections(page(), { documentId });
    expect(chunks.some(c => c.anchor === 'empty')).toBe(false);
    expect(chunks.some(c => c.text.includes('Only A Heading'))).toBe(false);
  });

  it('keeps code lines whole', () => {
    const chunks = chunkSections(page(), { documentId, maxChars: 300 });
    const last = chunks[chunks.length - 1];
    expect(last.text.endsWith('line one\nline two')).toBe(true);
  });

  it('cuts a sentence longer than a chunk at word boundaries only', () => {
    const long =
      Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ') + '.';
    const p = parseHtmlPage(
      `<h2 id="l">Long</h2><p>${long}</p><p>Short one.</p>`,
    );
    const chunks = chunkSections(p, { documentId, maxChars: 200 });
    expectChunkInvariants(p, chunks, 200);
    const words = new Set(long.replace('.', '').split(' '));
    for (const c of chunks) {
      for (const w of c.text.replace(/^Long\n\n/, '').split(/\s+/)) {
        if (w !== 'Short' && w !== 'one.')
          expect(words.has(w.replace(/\.$/, ''))).toBe(true);
      }
    }
    // The heading rides along with the first piece instead of standing alone.
    expect(chunks[0].text.startsWith('Long\n\nword0')).toBe(true);
    // Nothing lost or repeated: the pieces put together are the section text.
    expect(
      chunks
        .map(c => c.text)
        .join(' ')
        .replace(/\s+/g, ' '),
    ).toBe(`Long ${long} Short one.`);
  });

  it('prefers clause marks when cutting an over-long sentence', () => {
    const clauses =
      Array.from({ length: 30 }, (_, i) => `clause number ${i} goes here`).join(
        ', ',
      ) + '.';
    const p = parseHtmlPage(`<p>${clauses}</p>`);
    const chunks = chunkSections(p, { documentId, maxChars: 150 });
    expectChunkInvariants(p, chunks, 150);
    for (const c of chunks.slice(0, -1))
      expect(c.text.endsWith(',')).toBe(true);
  });

  it('hard-cuts only a run without any space', () => {
    const blob = 'x'.repeat(500);
    const p = parseHtmlPage(`<p>${blob}</p>`);
    const chunks = chunkSections(p, { documentId, maxChars: 200 });
    expect(chunks.map(c => c.text.length)).toEqual([200, 200, 100]);
    expect(chunks.map(c => c.text).join('')).toBe(blob);
  });

  it('repeats the last sentence of a chunk when overlapping', () => {
    const p = page();
    const chunks = chunkSections(p, {
      documentId,
      maxChars: 300,
      overlapSentences: 1,
    });
    expectChunkInvariants(p, chunks, 300);
    const alpha = chunks.filter(c => c.anchor === 'alpha');
    for (let i = 1; i < alpha.length; i++) {
      const previousSentences = splitSentences(alpha[i - 1].text).map(s =>
        alpha[i - 1].text.slice(s.start, s.end),
      );
      expect(
        alpha[i].text.startsWith(
          previousSentences[previousSentences.length - 1],
        ),
      ).toBe(true);
      expect(alpha[i].charStart).toBeLessThan(alpha[i - 1].charEnd);
    }
    // No overlap across sections.
    const firstBeta = chunks.find(c => c.anchor === 'beta')!;
    expect(firstBeta.text.startsWith('Beta')).toBe(true);
  });

  it('does not leave a tiny last chunk in a section when sentences can move', () => {
    // Sentences of 39 chars, limit 200: greedy packing leaves a one-sentence tail (5 + 5 + 1).
    const text = Array.from(
      { length: 11 },
      (_, i) => `This is sentence ${i} of the section text.`,
    ).join(' ');
    const p = parseHtmlPage(`<p>${text}</p>`);
    const greedy = chunkSections(p, { documentId, maxChars: 200, minChars: 0 });
    const balanced = chunkSections(p, {
      documentId,
      maxChars: 200,
      minChars: 100,
    });
    expect(greedy[greedy.length - 1].text.length).toBeLessThan(100);
    expect(balanced[balanced.length - 1].text.length).toBeGreaterThanOrEqual(
      100,
    );
    expect(balanced[balanced.length - 2].text.length).toBeGreaterThanOrEqual(
      100,
    );
    expect(balanced).toHaveLength(greedy.length);
    expectChunkInvariants(p, balanced, 200);
  });

  it('gives the same ids and hashes when the same page is chunked again', () => {
    const a = chunkSections(page(), { documentId });
    const b = chunkSections(page(), { documentId });
    expect(b.map(c => [c.chunkId, c.contentHash])).toEqual(
      a.map(c => [c.chunkId, c.contentHash]),
    );
  });

  it('keeps chunk ids when a section changes in place, and leaves other sections untouched', () => {
    const before = page();
    const after = parseHtmlPage(
      pageHtml(`${prose('intro', 3)} An extra sentence appears here now.`),
    );
    const a = chunkSections(before, { documentId, maxChars: 300 });
    const b = chunkSections(after, { documentId, maxChars: 300 });
    const intro = (cs: Chunk[]) =>
      cs.filter(c => c.anchor === '' || c.sectionPath === 'Guide');
    expect(intro(b)[0].chunkId).toBe(intro(a)[0].chunkId);
    expect(intro(b)[0].contentHash).not.toBe(intro(a)[0].contentHash);
    const rest = (cs: Chunk[]) =>
      cs
        .filter(c => c.sectionPath !== 'Guide')
        .map(c => [c.chunkId, c.contentHash, c.text]);
    expect(rest(b)).toEqual(rest(a));
    // Offsets after the change shift; identity does not.
    expect(b.find(c => c.anchor === 'beta')!.charStart).toBeGreaterThan(
      a.find(c => c.anchor === 'beta')!.charStart,
    );
  });

  it('derives chunk ids from the document id', () => {
    const other = documentIdFor(
      'component:default/other',
      'techdocs',
      'index.html',
    );
    const a = chunkSections(page(), { documentId });
    const b = chunkSections(page(), { documentId: other });
    expect(
      b.map(c => c.chunkId).some(id => a.some(x => x.chunkId === id)),
    ).toBe(false);
  });

  it('returns no chunks for an empty page', () => {
    expect(chunkSections(parseHtmlPage(''), { documentId })).toEqual([]);
  });
});

describe('identity hashes', () => {
  it(`documentIdFor is deterministic, case-insensitive in the ref, and separates its \
inputs`, () => {
    const id = documentIdFor(
      'Component:default/Payments',
      'techdocs',
      'user-guide/index.html',
    );
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(
      documentIdFor(
        'component:default/payments',
        'techdocs',
        '/user-guide/index.html',
      ),
    ).toBe(id);
    expect(
      documentIdFor(
        'component:default/payments',
        'catalog',
        'user-guide/index.html',
      ),
    ).not.toBe(id);
    expect(
      documentIdFor(
        'component:default/payments',
        'techdocs',
        'user-guide/other.html',
      ),
    ).not.toBe(id);
    expect(
      documentIdFor(
        'component:default/payment',
        'techdocs',
        'suser-guide/index.html',
      ),
    ).not.toBe(id);
  });

  it('the content hash covers the section path as well as the text', () => {
    expect(chunkContentHash('A › B', 'text')).not.toBe(
      chunkContentHash('A › C', 'text'),
    );
    expect(chunkContentHash('A › B', 'text')).not.toBe(
      chunkContentHash('A › B', 'text!'),
    );
  });
});
