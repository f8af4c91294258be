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

describe('linkCitations', () => {
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
        items: [{ label: 'Release process › Rollback', source: release }],
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
        { label: 'Nowhere', source: undefined },
        { label: 'Deployment › Canary', source: deploy },
      ],
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
