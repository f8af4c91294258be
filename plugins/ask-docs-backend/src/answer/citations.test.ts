import { matchCitations, selectSources } from './citations';
import { chunk, sameTitleChunks } from './testChunks';

const rollback = chunk({
  title: 'Release process',
  documentId: 'release',
  sectionPath: 'Release process › Rollback',
  text:
    'To roll back, run deploy rollback --to previous. ' +
    'The rollback takes about two minutes. Afterwards, check the dashboards.',
  rank: 2,
});
const releaseIntro = chunk({
  title: 'Release process',
  documentId: 'release',
  sectionPath: 'Release process',
  text: 'Releases happen every Tuesday.',
  rank: 1,
});
const manual = chunk({
  title: 'Release process',
  documentId: 'release',
  sectionPath: 'Release process › Rollback › Manual rollback',
  text: 'If the script fails, redeploy the previous image by hand.',
  rank: 4,
});
const faq = chunk({
  title: 'FAQ',
  documentId: 'faq',
  text: 'Q: Who approves releases? A: The release captain.',
  rank: 3,
});
const onboarding = chunk({
  title: 'Onboarding',
  documentId: 'onboarding',
  text: 'New joiners get laptop access on day one.',
  rank: 5,
});
const sent = [releaseIntro, rollback, faq, manual, onboarding];

const ids = (text: string, chunks = sent) =>
  selectSources(text, chunks).map(s => s.documentId);

describe('selectSources', () => {
  it('makes one source per cited document, in order of first citation', () => {
    const sources = selectSources(
      'The captain approves [FAQ]. Releases are on Tuesdays [Release process]. Roll back with ' +
        'the script [Release process].',
      sent,
    );
    expect(sources.map(s => s.documentId)).toEqual(['faq', 'release']);
    expect(sources[1]).toMatchObject({
      title: 'Release process',
      chunkId: releaseIntro.chunkId, // best-ranked chunk of the document
      entityRef: releaseIntro.entityRef,
      sectionPath: 'Release process',
      anchor: releaseIntro.anchor,
      url: releaseIntro.url,
      revision: 'rev-1',
    });
  });

  it('uses the chunk of a cited section', () => {
    const [source] = selectSources(
      'Run the rollback script [Release process › Rollback].',
      sent,
    );
    expect(source.chunkId).toBe(rollback.chunkId);
    expect(source.sectionPath).toBe('Release process › Rollback');
  });

  it('accepts a tail of the section path, a parent section and loose separators', () => {
    expect(
      selectSources('By hand [Release process › Manual rollback].', sent)[0]
        .chunkId,
    ).toBe(manual.chunkId);
    expect(
      selectSources(
        'x [release PROCESS > rollback › manual rollback.]',
        sent,
      )[0].chunkId,
    ).toBe(manual.chunkId);
    // A cited parent section that was not sent itself: the sent chunk under it, not the intro.
    expect(
      selectSources('x [Release process » Rollback]', [releaseIntro, manual])[0]
        .chunkId,
    ).toBe(manual.chunkId);
    // An exact section match beats a chunk under it, whatever the rank.
    expect(
      selectSources(
        'x [Release process › Rollback]',
        [manual, rollback].map((c, i) => ({ ...c, rank: i + 1 })),
      )[0].chunkId,
    ).toBe(rollback.chunkId);
  });

  it('still cites the document when the section does not exist, with its best-ranked chunk', () => {
    const { sources, unmatched } = matchCitations(
      'x [Release process › Canary]',
      sent,
    );
    expect(sources.map(s => s.chunkId)).toEqual([releaseIntro.chunkId]);
    expect(unmatched).toEqual([]);
  });

  it('prefers a section-matched chunk over a bare citation of the same document', () => {
    const sources = selectSources(
      'Tuesdays [Release process]. Script [Release process › Rollback].',
      sent,
    );
    expect(sources).toHaveLength(1);
    expect(sources[0].chunkId).toBe(rollback.chunkId);
  });

  it('says where each marker points: its section, the best passage, or the page', () => {
    const [release] = selectSources(
      'Roll back with the script [Release process › Rollback]. Canary first ' +
        '[Release process › Canary]. Releases are on Tuesdays [Release process]. Again ' +
        '[Release process › Rollback; Release process › Manual rollback].',
      sent,
    );
    expect(release.url).toBe(rollback.url);
    expect(release.citations).toEqual([
      { label: 'Release process › Rollback', url: rollback.url },
      // No sent passage of that section: the page, never another section's anchor.
      {
        label: 'Release process › Canary',
        url: '/docs/default/component/service/release/',
      },
      { label: 'Release process', url: releaseIntro.url },
      { label: 'Release process › Manual rollback', url: manual.url },
    ]);
    expect(new Set(release.citations!.map(c => c.url)).size).toBe(4);
  });

  it('reads several citations in one bracket', () => {
    expect(ids('Both [Onboarding; FAQ].')).toEqual(['onboarding', 'faq']);
  });

  it('reports hallucinated titles and does not make them sources', () => {
    const { sources, unmatched } = matchCitations(
      'It is in [Secret doc] and [FAQ].',
      sent,
    );
    expect(sources.map(s => s.documentId)).toEqual(['faq']);
    expect(unmatched).toEqual([
      { raw: '[Secret doc]', label: 'Secret doc', reason: 'unknown_title' },
    ]);
  });

  it('only knows sent chunks: a retrieved but unsent document is not a source', () => {
    expect(ids('It is in [Onboarding].', [releaseIntro, faq])).toEqual([]);
  });

  it('ignores titles mentioned in prose, in links, in code and by number', () => {
    expect(
      ids(
        'The Release process page and the FAQ say so; Onboarding too. See [the ' +
          'FAQ](https://x/faq), `[FAQ]`, [1] and [2].',
      ),
    ).toEqual([]);
  });

  it('does not match short titles inside other words or longer titles', () => {
    expect(
      ids(
        '[FAQs] [FAQ for contractors] [Onboarding checklist] [Pre-onboarding] [faq-bot]',
      ),
    ).toEqual([]);
    expect(
      matchCitations('[FAQs] [Onboarding checklist]', sent).unmatched.map(
        u => u.reason,
      ),
    ).toEqual(['unknown_title', 'unknown_title']);
    // While the exact short titles still match, whatever the case and trailing punctuation.
    expect(ids('[faq.] [ONBOARDING]')).toEqual(['faq', 'onboarding']);
  });

  it('makes a readable snippet: whole sentences, about 240 characters, near the claim', () => {
    const long = chunk({
      title: 'Long',
      text: [
        'Alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu.',
        'The database backup runs nightly at 02:00 UTC and keeps fourteen days of history.',
        'Restores are tested every month by the platform team on a staging copy.',
        'Nothing else of note happens here, and this sentence only adds length to the chunk text.',
        'A final sentence that should not fit into the snippet at all.',
      ].join(' '),
      rank: 1,
    });
    const [source] = selectSources(
      'Backups run nightly and keep fourteen days [Long].',
      [long],
    );
    expect(source.snippet.startsWith('The database backup runs nightly')).toBe(
      true,
    );
    expect(source.snippet.length).toBeLessThanOrEqual(240);
    expect(source.snippet).toMatch(/[.!?]$/);
    expect(source.snippet).not.toContain('final sentence');
  });

  it('cuts a single overlong sentence at a word with an ellipsis', () => {
    const run = chunk({
      title: 'Run-on',
      text: `${'word '.repeat(100)}end.`,
      rank: 1,
    });
    const [source] = selectSources('x [Run-on]', [run]);
    expect(source.snippet.length).toBeLessThanOrEqual(240);
    expect(source.snippet.endsWith('word…')).toBe(true);
  });

  it('records the claim each marker supports, including a marker after the full stop', () => {
    const { matches } = matchCitations(
      'Releases are on Tuesdays [Release process]. New joiners get laptops on day one. ' +
        '[Onboarding]',
      sent,
    );
    expect(matches.map(m => m.claim)).toEqual([
      'Releases are on Tuesdays',
      'New joiners get laptops on day one.',
    ]);
  });
});

describe('duplicate titles', () => {
  const [payments, billing] = sameTitleChunks('Overview', [
    [
      'payments-overview',
      'component:default/payments',
      {
        sectionPath: 'Overview › Settlement',
        text: 'Payments settle nightly.',
      },
    ],
    [
      'billing-overview',
      'component:default/billing',
      { sectionPath: 'Overview › Invoices', text: 'Invoices go out monthly.' },
    ],
  ]);
  const both = [payments, billing];

  it('resolves the disambiguated labels to their own documents', () => {
    const sources = selectSources(
      'Settle nightly [Overview (payments)]. Monthly [Overview (billing) › Invoices].',
      both,
    );
    expect(sources.map(s => [s.title, s.documentId])).toEqual([
      ['Overview (payments)', 'payments-overview'],
      ['Overview (billing)', 'billing-overview'],
    ]);
  });

  it('does not guess for a bare shared title', () => {
    const { sources, unmatched } = matchCitations(
      'Something [Overview].',
      both,
    );
    expect(sources).toEqual([]);
    expect(unmatched).toEqual([
      {
        raw: '[Overview]',
        label: 'Overview',
        reason: 'ambiguous_title',
        candidates: ['Overview (payments)', 'Overview (billing)'],
      },
    ]);
  });

  it('lets a section that exists in only one of them decide', () => {
    expect(ids('Monthly [Overview › Invoices].', both)).toEqual([
      'billing-overview',
    ]);
    // The client links the marker as written, although the source's label differs.
    expect(
      selectSources('Monthly [Overview › Invoices].', both)[0].citations,
    ).toEqual([{ label: 'Overview › Invoices', url: billing.url }]);
  });

  it('keeps the plain title when only one of the duplicates was sent', () => {
    expect(
      selectSources('x [Overview]', [billing]).map(s => [
        s.title,
        s.documentId,
      ]),
    ).toEqual([['Overview', 'billing-overview']]);
  });
});

describe('titles that contain marker syntax', () => {
  // A page titled "Release › Rollback", and the section "Rollback" of the page "Release".
  const section = chunk({
    title: 'Release',
    documentId: 'release',
    sectionPath: 'Release › Rollback',
    text: 'Roll back with deploy rollback.',
    rank: 1,
  });
  const page = chunk({
    title: 'Release › Rollback',
    documentId: 'release-rollback',
    sectionPath: 'Release › Rollback › Steps',
    text: 'Steps of a rollback.',
    rank: 2,
  });

  it('cites the section of "Release", never the page whose title looks like it', () => {
    expect(ids('Roll back [Release › Rollback].', [section, page])).toEqual([
      'release',
    ]);
    // The page is cited by its label, whose separator became a dash, and keeps its section.
    const { sources, matches } = matchCitations(
      'Steps [Release - Rollback › Steps].',
      [section, page],
    );
    expect(sources.map(s => [s.documentId, s.title])).toEqual([
      ['release-rollback', 'Release - Rollback'],
    ]);
    expect(matches[0].sectionMatched).toBe(true);
  });

  it('keeps titles apart that differ only in their separator', () => {
    const a = chunk({
      title: 'Setup > Linux',
      documentId: 'a',
      text: '.',
      rank: 1,
    });
    const b = chunk({
      title: 'Setup › Linux',
      documentId: 'b',
      text: '.',
      rank: 2,
    });
    const { unmatched } = matchCitations('x [Setup - Linux].', [a, b]);
    // Both clean to the same title: a bare citation of it is ambiguous, never one of them.
    expect(unmatched.map(u => u.reason)).toEqual(['ambiguous_title']);
  });

  it('finds bracketed shared titles ambiguous, as it does plain ones', () => {
    const [x, y] = sameTitleChunks('Guide [beta]', [
      ['pay-guide', 'component:default/pay'],
      ['bill-guide', 'component:default/bill'],
    ]);
    const { sources, unmatched } = matchCitations('x [Guide (beta)].', [x, y]);
    expect(sources).toEqual([]);
    expect(unmatched.map(u => u.reason)).toEqual(['ambiguous_title']);
  });

  it('keeps a section named like its page as a section', () => {
    // Page "Rollback", its h1 "Rollback" and an h2 "Rollback": "Rollback › Rollback".
    const h1 = chunk({
      title: 'Rollback',
      documentId: 'rb',
      sectionPath: 'Rollback',
      text: 'About rollbacks.',
      rank: 1,
    });
    const h2 = chunk({
      title: 'Rollback',
      documentId: 'rb',
      sectionPath: 'Rollback › Rollback',
      anchor: 'rollback-1',
      text: 'Run deploy rollback.',
      rank: 2,
    });
    const { matches } = matchCitations('Run it [Rollback › Rollback].', [
      h1,
      h2,
    ]);
    expect(matches.map(m => [m.chunk.anchor, m.sectionMatched])).toEqual([
      ['rollback-1', true],
    ]);
  });
});
