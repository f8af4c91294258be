import { sectionPathOf } from '../chunkSections';
import { chunkContentHash } from '../identity';
import { splitSentences } from '../sentences';
import { Chunk, ParsedPage } from '../types';

/** Offsets, sections and sentence boundaries every parsed page must keep. */
export function expectPageInvariants(p: ParsedPage) {
  expect(p.sections.map(s => s.text).join('\n\n')).toBe(p.text);
  for (const s of p.sections)
    expect(p.text.slice(s.charStart, s.charEnd)).toBe(s.text);
  expect(new Set(p.sections.map(s => s.key)).size).toBe(p.sections.length);
}

/** Checks the invariants every chunking must keep, whatever the content. */
export function expectChunkInvariants(
  p: ParsedPage,
  chunks: Chunk[],
  maxChars: number,
) {
  expect(chunks.map(c => c.ordinal)).toEqual(chunks.map((_, i) => i));
  expect(new Set(chunks.map(c => c.chunkId)).size).toBe(chunks.length);
  for (const c of chunks) {
    expect(p.text.slice(c.charStart, c.charEnd)).toBe(c.text);
    expect(c.text.length).toBeLessThanOrEqual(maxChars);
    expect(c.text).toBe(c.text.trim());
    const inside = p.sections.filter(
      s => s.charStart <= c.charStart && c.charEnd <= s.charEnd,
    );
    expect(inside).toHaveLength(1);
    const section = inside[0];
    expect(c.anchor).toBe(section.anchor);
    expect(c.sectionPath).toBe(sectionPathOf(p.title, section));
    expect(c.contentHash).toBe(chunkContentHash(c.sectionPath, c.text));
    // Ends at the section end, a line end, or a sentence end; otherwise it was a forced cut of a
    // sentence longer than a chunk.
    const endsCleanly =
      c.charEnd === section.charEnd ||
      p.text[c.charEnd] === '\n' ||
      /[.!?…:;]["'”’)\]»]*$/.test(c.text);
    if (!endsCleanly) {
      const rel = c.charEnd - section.charStart;
      const sentence = splitSentences(section.text).find(
        s => s.start < rel && rel < s.end,
      );
      expect(sentence).toBeDefined();
      expect(sentence!.end - sentence!.start).toBeGreaterThan(maxChars);
    }
  }
}
