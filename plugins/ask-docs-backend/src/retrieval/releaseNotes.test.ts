import { startTestDatabase, TestDatabase } from '../testUtils/testDatabase';
import { fakeVisibility } from '../testUtils/fakeVisibility';
import { IndexReader } from '../database/IndexReader';
import { Visibility } from '../permissions/visibility';
import { queryTokens, seedIndex, words } from './testUtils/seed';
import { retrieve } from './retriever';
import {
  asksAboutReleases,
  DEFAULT_RELEASE_NOTES_PENALTY,
  isReleaseNotes,
  lowerReleaseNotes,
} from './releaseNotes';

describe('isReleaseNotes', () => {
  it.each([
    'Release Notes › Version 1.6.0 (2024-04-20) › Fixed',
    'MkDocs › Release Notes',
    'E.1. Release 15.20 › E.1.2. Changes',
    'Appendix E. Release Notes',
    "9. What's new in GIMP 2.10? › Improved tools",
    'What’s New in GIMP 2.8?',
    'CHANGELOG',
    'Co je v GIMPu nového? › Nástroje',
    'Poznámky k vydání › Verze 3.1',
    '4. Verze 2.0',
    'E.21. Release 15 › E.21.1. Overview',
    'Docs › 1.2.0 (2024-01-01)',
    '[1.2.3] - 2024-01-01',
    'Changes › v2.3.1',
    '@backstage/plugin-catalog › 1.30.0 › Patch Changes',
    '@backstage/plugin-catalog › 2.0.0-next.1',
    'Changes › [Unreleased]',
    'Co je nového',
  ])('knows %j as release notes', path => {
    expect(isReleaseNotes(path)).toBe(true);
  });

  it.each([
    // A heading with a section number, a version-less "version", history of another kind.
    '9.4. String Functions and Operators',
    'Version control with Git',
    'Renewing certificates › What is new',
    '3.4. Historie vracení',
    'Přijetí nového člena',
    'Releasing locks › pg_advisory_unlock',
    'Versioned documentation',
    // Section numbers, with a title or alone.
    '1.2.3. Installing from source',
    'Contents › 2.1',
    // "version" with a number inside a heading about something else.
    'Migration to Version 15.20',
    'TLS version 1.2',
    'Installation › Requirements › Node.js version 18.0',
    'API reference › API version 2.1',
    'Python › release 3.11 compatibility',
    'Appendix E. GNU Free Documentation License › Version 1.2, November 2002',
    // "nového" is any "new" in Czech.
    'FAQ › Co je potřeba k vytvoření nového účtu',
    '',
  ])('does not take %j for release notes', path => {
    expect(isReleaseNotes(path)).toBe(false);
  });
});

describe('asksAboutReleases', () => {
  it.each([
    'what changed in 1.5?',
    'which release added the dark mode?',
    "what's new in GIMP 2.10",
    'is the toggle new in this version?',
    'Ve které verzi přibyl tmavý režim?',
    'Jaké jsou novinky?',
    // Each wording alone, without a number or "version".
    "what's new in the editor",
    'where is the changelog of the theme',
    'was the search plugin deprecated',
    'Co je nového v GIMPu?',
    'Co se změnilo v pluginu?',
    'upgrade from v2.3',
  ])('hears %j as a question about releases', question => {
    expect(asksAboutReleases(question)).toBe(true);
  });

  it.each([
    'how do I create a new user?',
    'Jak přidat nového člena spolku?',
    'switch a plugin on only when an environment variable is set',
    'cancel a running query',
    // An address or a date is not a version.
    'serve the site on 127.0.0.1 port 8000',
    'výbor zvolený 7.5.2025',
  ])('does not hear %j as one', question => {
    expect(asksAboutReleases(question)).toBe(false);
  });
});

describe('lowerReleaseNotes', () => {
  const PENALTY = DEFAULT_RELEASE_NOTES_PENALTY.scores;
  const paths = new Map([
    ['notes', 'Release Notes › Version 1.6.0 (2024-04-20)'],
    ['guide', 'Configuration › plugins'],
  ]);
  const pathOf = (id: string) => paths.get(id);
  const fused = [
    { id: 'notes', rrf: 1.0 },
    { id: 'guide', rrf: 0.95 },
  ];

  it('puts a reference page just behind the release notes above them', () => {
    const lowered = lowerReleaseNotes(
      fused,
      pathOf,
      'enable a plugin',
      PENALTY,
    );
    expect(lowered.map(f => f.id)).toEqual(['guide', 'notes']);
    expect(lowered[1].rrf).toBeCloseTo(1 - PENALTY, 12);
    // The input is not modified.
    expect(fused[0].rrf).toBe(1);
  });

  it('is only a nudge: a clear lead of the release notes stays', () => {
    const lead = [
      { id: 'notes', rrf: 1.0 },
      { id: 'guide', rrf: 0.8 },
    ];
    expect(
      lowerReleaseNotes(lead, pathOf, 'enable a plugin', PENALTY).map(
        f => f.id,
      ),
    ).toEqual(['notes', 'guide']);
  });

  it('leaves the order alone for a question about releases, or with penalty 0', () => {
    const asIs = [
      lowerReleaseNotes(fused, pathOf, 'which version added plugins?', PENALTY),
      lowerReleaseNotes(fused, pathOf, 'enable a plugin', 0),
    ];
    for (const order of asIs) expect(order).toEqual(fused);
  });

  it('leaves chunks without a section path alone', () => {
    expect(
      lowerReleaseNotes(fused, () => undefined, 'enable a plugin', PENALTY),
    ).toEqual(fused);
  });
});

describe('retrieve: release notes under the page that explains the feature', () => {
  let db: TestDatabase;
  let everyone: Visibility;

  beforeAll(async () => {
    db = await startTestDatabase();
    // Both chunks have the question's words as a phrase; the changelog's line is shorter, so
    // it scores a little higher.
    await seedIndex(db.knex, {
      entities: [{ entityRef: 'component:default/site' }],
      documents: [
        {
          entityRef: 'component:default/site',
          title: 'Site',
          chunks: [
            {
              chunkId: 'notes',
              sectionPath: 'Release Notes › Version 1.6.0 (2024-04-20)',
              text: 'theme reload option added',
            },
            {
              chunkId: 'guide',
              sectionPath: 'Configuration › Serving',
              text: 'the theme reload option rebuilds pages',
            },
          ],
        },
      ],
    });
    everyone = await fakeVisibility({ chunk: 'ALLOW' });
  }, 120_000);

  afterAll(async () => {
    await db?.stop();
  });

  async function retrieveFor(
    question: string,
    options: { releaseNotesPenalty?: number; fusion?: 'scores' | 'rrf' } = {},
  ) {
    return retrieve({
      reader: new IndexReader(db.knex, everyone),
      modelId: 'none',
      // Letters only: a version number is no keyword, so it changes the question's text alone.
      queryTokens: queryTokens(...words(question)),
      question,
      mode: 'keyword',
      fusion: options.fusion ?? 'scores',
      k: 10,
      thresholds: { minSimilarity: -1, minCoverage: 0 },
      ...(options.releaseNotesPenalty === undefined
        ? {}
        : { releaseNotesPenalty: options.releaseNotesPenalty }),
    });
  }
  const order = async (question: string, releaseNotesPenalty?: number) =>
    (await retrieveFor(question, { releaseNotesPenalty })).chunks.map(
      c => c.chunkId,
    );

  it('ranks the guide first by default, the changelog first without the penalty', async () => {
    expect(await order('theme reload option')).toEqual(['guide', 'notes']);
    expect(await order('theme reload option', 0)).toEqual(['notes', 'guide']);
  });

  it('keeps the order for a question that names a version', async () => {
    // Same keywords as above; only the version number in the question differs.
    expect(await order('theme reload option 1.6.0')).toEqual([
      'notes',
      'guide',
    ]);
    expect(await order('theme reload option 1.6.0', 0)).toEqual([
      'notes',
      'guide',
    ]);
  });

  it('gives the evidence features the lowered order', async () => {
    const lowered = await retrieveFor('theme reload option');
    const asIs = await retrieveFor('theme reload option', {
      releaseNotesPenalty: 0,
    });
    // fusedTop is the top chunk's score over the largest possible: the guide's after the
    // penalty, the changelog's (higher) without it.
    const scale = (r: typeof lowered) =>
      r.evidence!.features.fusedTop / r.chunks[0].rrf;
    expect(scale(lowered)).toBeCloseTo(scale(asIs), 12);
    expect(lowered.chunks[0].chunkId).toBe('guide');
    expect(lowered.evidence!.features.fusedTop).toBeLessThan(
      asIs.evidence!.features.fusedTop,
    );
  });

  it('is off by default under RRF (unmeasured there), and applies when configured', async () => {
    const rrf = async (releaseNotesPenalty?: number) =>
      (
        await retrieveFor('theme reload option', {
          fusion: 'rrf',
          releaseNotesPenalty,
        })
      ).chunks.map(c => ({ id: c.chunkId, rrf: c.rrf }));
    const [byDefault, off, on] = [await rrf(), await rrf(0), await rrf(0.5)];
    expect(byDefault).toEqual(off);
    const notes = (xs: typeof on) => xs.find(x => x.id === 'notes')!.rrf;
    expect(notes(on)).toBeCloseTo(notes(off) * 0.5, 12);
    expect(on.map(x => x.id)).toEqual(['guide', 'notes']);
  });
});
