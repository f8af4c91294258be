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
    'Migration to Version 15.20',
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
  ])('hears %j as a question about releases', question => {
    expect(asksAboutReleases(question)).toBe(true);
  });

  it.each([
    'how do I create a new user?',
    'Jak přidat nového člena spolku?',
    'switch a plugin on only when an environment variable is set',
    'cancel a running query',
  ])('does not hear %j as one', question => {
    expect(asksAboutReleases(question)).toBe(false);
  });
});

describe('lowerReleaseNotes', () => {
  const paths = new Map([
    ['notes', 'Release Notes › Version 1.6.0 (2024-04-20)'],
    ['guide', 'Configuration › plugins'],
  ]);
  const fused = [
    { id: 'notes', rrf: 1.0 },
    { id: 'guide', rrf: 0.95 },
  ];

  it('puts a reference page just behind the release notes above them', () => {
    const lowered = lowerReleaseNotes(fused, paths, 'enable a plugin');
    expect(lowered.map(f => f.id)).toEqual(['guide', 'notes']);
    expect(lowered[1].rrf).toBeCloseTo(1 - DEFAULT_RELEASE_NOTES_PENALTY, 12);
    // The input is not modified.
    expect(fused[0].rrf).toBe(1);
  });

  it('is only a nudge: a clear lead of the release notes stays', () => {
    const lead = [
      { id: 'notes', rrf: 1.0 },
      { id: 'guide', rrf: 0.8 },
    ];
    expect(
      lowerReleaseNotes(lead, paths, 'enable a plugin').map(f => f.id),
    ).toEqual(['notes', 'guide']);
  });

  it('leaves the order alone for a question about releases, or with penalty 0', () => {
    const asIs = [
      lowerReleaseNotes(fused, paths, 'which version added plugins?'),
      lowerReleaseNotes(fused, paths, 'enable a plugin', 0),
    ];
    for (const order of asIs) expect(order).toEqual(fused);
  });

  it('leaves chunks without a section path alone', () => {
    expect(lowerReleaseNotes(fused, new Map(), 'enable a plugin')).toEqual(
      fused,
    );
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

  async function order(question: string, releaseNotesPenalty?: number) {
    const result = await retrieve({
      reader: new IndexReader(db.knex, everyone),
      modelId: 'none',
      // Letters only: a version number is no keyword, so it changes the question's text alone.
      queryTokens: queryTokens(...words(question)),
      question,
      mode: 'keyword',
      fusion: 'scores',
      k: 10,
      thresholds: { minSimilarity: -1, minCoverage: 0 },
      ...(releaseNotesPenalty === undefined ? {} : { releaseNotesPenalty }),
    });
    return result.chunks.map(c => c.chunkId);
  }

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
});
