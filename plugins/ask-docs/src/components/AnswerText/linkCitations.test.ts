import type { AnswerSource } from '@askdocs/plugin-ask-docs-common';
import { linkCitations } from './linkCitations';

const source = (title: string, url: string): AnswerSource => ({
  title,
  url,
  documentId: title,
  chunkId: `${title}-1`,
  entityRef: 'component:default/payments',
  sectionPath: title,
  anchor: '',
  snippet: '',
  revision: 'r1',
});

describe('linkCitations on answers stored without citations (by title)', () => {
  const release = source(
    'Release process',
    '/docs/default/component/payments/release/#rollback',
  );
  const deploy = source(
    'Deployment',
    '/docs/default/component/payments/deploy/',
  );

  it('splits prose and brackets, linking markers to the source with the same title', () => {
    const segments = linkCitations(
      'Use the tool [Release process › Rollback] today.',
      [release],
    );
    expect(segments).toEqual([
      { kind: 'text', text: 'Use the tool ' },
      {
        kind: 'citations',
        raw: '[Release process › Rollback]',
        items: [
          {
            label: 'Release process › Rollback',
            source: release,
            url: release.url,
          },
        ],
      },
      { kind: 'text', text: ' today.' },
    ]);
  });

  it('matches titles after normalisation (case, quotes, dashes)', () => {
    const quoted = source('Team’s “on-call” guide', '/docs/x/');
    const [segment] = linkCitations('[team\'s "on—call" GUIDE]', [quoted]);
    expect(segment).toMatchObject({
      kind: 'citations',
      items: [{ source: quoted }],
    });
  });

  it('leaves unmatched markers without a source', () => {
    const segments = linkCitations('See [Unknown].', [release]);
    expect(segments[1]).toEqual({
      kind: 'citations',
      raw: '[Unknown]',
      items: [{ label: 'Unknown', source: undefined }],
    });
  });

  it('resolves each citation of a multi-citation bracket on its own', () => {
    const segments = linkCitations(
      '[Release process; Nowhere; Deployment › Canary]',
      [release, deploy],
    );
    expect(segments).toHaveLength(1);
    expect(segments[0]).toMatchObject({
      kind: 'citations',
      items: [
        { label: 'Release process', source: release },
        { label: 'Nowhere' },
        { label: 'Deployment › Canary', source: deploy },
      ],
    });
    expect(segments[0]).not.toMatchObject({
      items: [{}, { source: expect.anything() }, {}],
    });
  });

  it('prefers a source whose whole title contains the separator', () => {
    const odd = source('Guides › Payments', '/docs/guides/');
    const guides = source('Guides', '/docs/other/');
    const [segment] = linkCitations('[Guides › Payments]', [guides, odd]);
    expect(segment).toMatchObject({ items: [{ source: odd }] });
  });

  it('does not treat markdown links or numeric brackets as citations', () => {
    const segments = linkCitations('[Release process](http://x) and x[1]', [
      release,
    ]);
    expect(segments.every(s => s.kind === 'text')).toBe(true);
  });
});

describe('linkCitations as the backend resolved each marker', () => {
  const page = '/docs/default/component/payments/release/';
  const release: AnswerSource = {
    ...source('Release process', `${page}#rollback`),
    citations: [
      { label: 'Release process › Rollback', url: `${page}#rollback` },
      { label: 'Release process › Canary', url: `${page}#canary` },
      { label: 'Release process › Nowhere', url: page },
    ],
  };
  const payments: AnswerSource = {
    ...source('Overview (payments)', '/docs/payments/#settlement'),
    citations: [
      { label: 'Overview › Settlement', url: '/docs/payments/#settlement' },
    ],
  };

  it('links a second section of one document to its own anchor', () => {
    const segments = linkCitations(
      'Roll back [Release process › Rollback]; canary first [Release process › Canary] or ' +
        '[Release process › Nowhere].',
      [release],
    );
    const items = segments.flatMap(s =>
      s.kind === 'citations' ? s.items : [],
    );
    expect(items.map(i => [i.label, i.source?.title, i.url])).toEqual([
      ['Release process › Rollback', 'Release process', `${page}#rollback`],
      ['Release process › Canary', 'Release process', `${page}#canary`],
      ['Release process › Nowhere', 'Release process', page],
    ]);
  });

  it('links a marker whose title differs from the source label, as the backend matched it', () => {
    const [segment] = linkCitations('[overview › SETTLEMENT]', [payments]);
    expect(segment).toMatchObject({
      items: [{ source: payments, url: '/docs/payments/#settlement' }],
    });
  });

  it('leaves a marker the backend did not resolve unlinked, even when a title matches', () => {
    // "[Release process]" alone was not among the answer's citations: no guessing by title.
    const [segment] = linkCitations('[Release process]', [release]);
    expect(segment).toEqual({
      kind: 'citations',
      raw: '[Release process]',
      items: [{ label: 'Release process' }],
    });
  });
});
