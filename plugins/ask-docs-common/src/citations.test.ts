import {
  normalizeTitle,
  parseCitationMarkers,
  splitSectionPath,
} from './citations';

const titles = (text: string) => parseCitationMarkers(text).map(m => m.title);

describe('parseCitationMarkers', () => {
  it('finds bracket markers with offsets', () => {
    const text =
      'Roll back with the script [Release process]. Then page [On-call].';
    const markers = parseCitationMarkers(text);
    expect(markers.map(m => [m.title, m.section])).toEqual([
      ['Release process', undefined],
      ['On-call', undefined],
    ]);
    for (const m of markers) {
      expect(text.slice(m.start, m.end)).toBe(m.raw);
    }
    expect(markers[0].raw).toBe('[Release process]');
  });

  it('splits a section on ›, » and spaced >', () => {
    const markers = parseCitationMarkers(
      '[Release process › Rollback] [Release process»Rollback › Manual] [Release process > ' +
        'Rollback]',
    );
    expect(markers.map(m => [m.title, m.section])).toEqual([
      ['Release process', 'Rollback'],
      ['Release process', 'Rollback › Manual'],
      ['Release process', 'Rollback'],
    ]);
    expect(markers[1].label).toBe('Release process»Rollback › Manual');
  });

  it('does not treat dashes, colons or unspaced > as separators', () => {
    const markers = parseCitationMarkers(
      '[PostgreSQL - Backup] [Guide: Setup] [a>b]',
    );
    expect(markers.map(m => [m.title, m.section])).toEqual([
      ['PostgreSQL - Backup', undefined],
      ['Guide: Setup', undefined],
      ['a>b', undefined],
    ]);
  });

  it('splits several citations in one bracket on ; and they share the bracket span', () => {
    const text = 'Both apply [Release process › Rollback; FAQ ;  Deployment].';
    const markers = parseCitationMarkers(text);
    expect(markers.map(m => [m.title, m.section])).toEqual([
      ['Release process', 'Rollback'],
      ['FAQ', undefined],
      ['Deployment', undefined],
    ]);
    expect(new Set(markers.map(m => m.start)).size).toBe(1);
    expect(markers[2].raw).toBe(
      '[Release process › Rollback; FAQ ;  Deployment]',
    );
  });

  it('ignores markdown links, images and reference definitions', () => {
    const text = [
      'See [the guide](https://example.com/guide) and ![diagram](img.png).',
      '[guide]: https://example.com',
      'But this counts [Guide].',
    ].join('\n');
    expect(titles(text)).toEqual(['Guide']);
  });

  it('ignores checkboxes, footnotes, numeric brackets and escaped brackets', () => {
    const text =
      '- [ ] todo\n- [x] done\n- [X] done\nA fact[^1] [1] [2, 3] [4-6] \\[Not a cite] [Real]';
    expect(titles(text)).toEqual(['Real']);
  });

  it('ignores brackets inside inline code and fenced code', () => {
    const text = [
      'Use `config[FAQ]` to read it [Onboarding].',
      '```yaml',
      'items: [FAQ]',
      '```',
      '~~~',
      'x = y[Release process]',
      '~~~',
      'After the code [FAQ].',
    ].join('\n');
    expect(titles(text)).toEqual(['Onboarding', 'FAQ']);
  });

  it('an unterminated fence swallows the rest (still code)', () => {
    expect(titles('Text [A]\n```\ncode [B]\n')).toEqual(['A']);
  });

  it('does not find titles mentioned without brackets', () => {
    expect(
      parseCitationMarkers('The Release process page and the FAQ say so.'),
    ).toEqual([]);
  });

  it('does not span lines or nest', () => {
    expect(titles('[Open\nclose] [[Inner]]')).toEqual(['Inner']);
  });

  it('ignores overly long bracket content', () => {
    expect(titles(`[${'word '.repeat(150)}]`)).toEqual([]);
  });

  it('limits each citation of a bracket, not the bracket: several long ones all count', () => {
    const long = (n: number) =>
      `${'Title '.repeat(18)}${n} › ${'Section '.repeat(15)}${n}`;
    const text = `Do this [${long(1)}; ${long(2)}; ${long(3)}].`;
    expect(text.length).toBeGreaterThan(700);
    expect(titles(text)).toHaveLength(3);
    // One citation past the limit is prose, its short neighbour still a citation.
    expect(titles(`[${'word '.repeat(120)}; FAQ]`)).toEqual(['FAQ']);
  });

  it('takes a line-start bracket and colon for a citation unless a destination follows', () => {
    const text = [
      '[Release process]: run the rollback script.',
      '[ref]: https://example.com/x',
      '[other]: ./guide.md "The guide"',
      '[paths]: <docs/a b.md>',
    ].join('\n');
    expect(titles(text)).toEqual(['Release process']);
  });
});

describe('normalizeTitle', () => {
  it('case-folds, collapses whitespace and trims', () => {
    expect(normalizeTitle('  Release\u00a0  Process \n')).toBe(
      'release process',
    );
    expect(normalizeTitle('STRASSE')).toBe(normalizeTitle('Straße'));
  });

  it('applies NFC so composed and decomposed forms match', () => {
    expect(normalizeTitle('Nasazen\u0069\u0301')).toBe(
      normalizeTitle('Nasazení'),
    );
  });

  it('strips trailing punctuation, quotes and emphasis', () => {
    expect(normalizeTitle('Release process.')).toBe('release process');
    expect(normalizeTitle('**"Release process"**')).toBe('release process');
    expect(normalizeTitle('What is pgvector?')).toBe('what is pgvector');
  });

  it('unifies typographic apostrophes and dashes', () => {
    expect(normalizeTitle('What’s new – 2024')).toBe(
      normalizeTitle("What's new - 2024"),
    );
  });

  it('keeps distinct titles distinct', () => {
    expect(normalizeTitle('FAQ')).not.toBe(normalizeTitle('FAQs'));
    expect(normalizeTitle('C#')).not.toBe(normalizeTitle('C'));
  });
});

describe('splitSectionPath', () => {
  it('splits on any accepted separator', () => {
    expect(
      splitSectionPath('Release process › Rollback » Manual > Steps'),
    ).toEqual(['Release process', 'Rollback', 'Manual', 'Steps']);
  });
});
