import { HashingEmbedder, foldText, tokenizeWords } from './HashingEmbedder';
import { createLanguageAnalyzers } from '../language';
import { dot } from './vectorMath';

const norm = (v: number[]) => Math.sqrt(dot(v, v));

describe('HashingEmbedder', () => {
  const embedder = new HashingEmbedder();
  const sim = async (a: string, b: string) =>
    dot(await embedder.embedQuery(a), (await embedder.embedPassages([b]))[0]);

  it('is labelled as the fallback with its dimension in the model id', () => {
    expect(embedder.kind).toBe('hashing-fallback');
    expect(embedder.dimension).toBe(384);
    expect(embedder.modelId).toBe('hashing-fallback-v1-384');
    expect(embedder.fallbackReason).toBeUndefined();
    const small = new HashingEmbedder({
      dimension: 128,
      fallbackReason: 'model missing',
    });
    expect(small.modelId).toBe('hashing-fallback-v1-128');
    expect(small.fallbackReason).toBe('model missing');
  });

  it('rejects unusable dimensions', () => {
    expect(() => new HashingEmbedder({ dimension: 0 })).toThrow(/dimension/);
    expect(() => new HashingEmbedder({ dimension: 100.5 })).toThrow(
      /dimension/,
    );
  });

  it('is deterministic across calls and instances', async () => {
    const text = 'Jak nasadit službu do produkčního prostředí?';
    const a = await embedder.embedQuery(text);
    const b = (await new HashingEmbedder().embedPassages([text]))[0];
    expect(b).toEqual(a);
    expect(a).toHaveLength(384);
  });

  it('returns unit vectors of the configured dimension', async () => {
    const e = new HashingEmbedder({ dimension: 64 });
    const vs = await e.embedPassages([
      'PostgreSQL autovacuum can be disabled per table.',
      'a',
      'Zálohování databáze probíhá každou noc.',
      '',
      '?!…',
      'the is of',
    ]);
    expect(vs).toHaveLength(6);
    for (const v of vs) {
      expect(v).toHaveLength(64);
      expect(norm(v)).toBeCloseTo(1, 10);
      expect(v.every(Number.isFinite)).toBe(true);
    }
  });

  it('ignores case and diacritics', async () => {
    expect(await embedder.embedQuery('Nasazení SLUŽBY')).toEqual(
      await embedder.embedQuery('nasazeni sluzby'),
    );
    expect(foldText('Příliš žluťoučký kůň')).toBe('prilis zlutoucky kun');
    expect(tokenizeWords('Verze 2.10, (beta)!')).toEqual([
      'verze',
      '2',
      '10',
      'beta',
    ]);
  });

  it('handles empty text with a stable unit vector that matches nothing real', async () => {
    const empty = await embedder.embedQuery('');
    expect(norm(empty)).toBeCloseTo(1, 10);
    expect(await embedder.embedQuery('  ... ')).toEqual(empty);
    expect(await embedder.embedPassages([])).toEqual([]);
    expect(
      Math.abs(await sim('', 'Zálohování databáze probíhá každou noc.')),
    ).toBeLessThan(0.3);
    // Only function words is still text, not "empty".
    expect(await embedder.embedQuery('what is it')).not.toEqual(empty);
  });

  it('ranks an English paraphrase above unrelated text', async () => {
    const q = 'How do I restore the database from a backup?';
    const related =
      'Restoring a database from backups requires stopping the server first.';
    const unrelated = [
      'The weather is sunny today and the park is full of people.',
      'Configure the logging level in the application settings.',
      'Layers can be merged with the Merge Down command.',
    ];
    const s = await sim(q, related);
    for (const u of unrelated)
      expect(s).toBeGreaterThan((await sim(q, u)) + 0.1);
  });

  it('matches Czech inflected forms of the same words', async () => {
    const q = 'Jak zálohovat databázi?';
    const related = 'Zálohování databáze se provádí příkazem pg_dump.';
    const unrelated = [
      'Vrstvy obrázku lze sloučit příkazem Sloučit dolů.',
      'Nabídka Filtry může u každého uživatele vypadat jinak.',
      'Konfigurace protokolování je v souboru nastavení.',
    ];
    const s = await sim(q, related);
    expect(s).toBeGreaterThan(0.2);
    for (const u of unrelated)
      expect(s).toBeGreaterThan((await sim(q, u)) + 0.1);

    // The same question typed without diacritics lands just as close.
    expect(await sim('jak zalohovat databazi', related)).toBeCloseTo(s, 10);
  });

  it('keeps unrelated texts nearly orthogonal', async () => {
    const s = await sim(
      'Kdy byl uveřejněn GIMP 1.0?',
      'PostgreSQL autovacuum settings per table',
    );
    expect(Math.abs(s)).toBeLessThan(0.15);
  });

  it('weights repeated words sublinearly', async () => {
    const once = await embedder.embedQuery('database backup');
    const many = await embedder.embedQuery(
      'database database database database backup',
    );
    const backup = await embedder.embedQuery('backup');
    // Quadrupling "database" must not erase the contribution of "backup".
    expect(dot(many, backup)).toBeGreaterThan(dot(once, backup) * 0.5);
  });
});

describe('HashingEmbedder v2 (with the language analyzers)', () => {
  let v2: HashingEmbedder;
  const v1 = new HashingEmbedder();
  const simWith = async (e: HashingEmbedder, a: string, b: string) =>
    dot(await e.embedQuery(a), (await e.embedPassages([b]))[0]);

  beforeAll(async () => {
    // Default dictionary path: Debian's hunspell-cs (installed by scripts/install-system-deps.sh).
    const analyzers = await createLanguageAnalyzers({
      languages: ['en', 'cs'],
    });
    v2 = new HashingEmbedder({ analyzers, dimension: 384 });
  });

  it('names its analyzers in the model id, so a language change re-embeds', () => {
    expect(v2.modelId).toBe('hashing-fallback-v2-en+cs-384');
    expect(v2.kind).toBe('hashing-fallback');
  });

  it('brings inflected forms together through lemmas where v1 only has fragments', async () => {
    // psa → pes, dne → den: no shared prefix or n-gram beyond a letter or two.
    for (const [query, passage] of [
      ['psa', 'pes'],
      ['dne', 'den'],
      ['lišce', 'liška'],
    ]) {
      const withLemmas = await simWith(v2, query, passage);
      expect(withLemmas).toBeGreaterThan(await simWith(v1, query, passage));
      // ...and by more than an unrelated word of the same language gets.
      expect(withLemmas).toBeGreaterThan(
        (await simWith(v2, query, 'kočka')) + 0.1,
      );
    }
  });

  it('stays deterministic, unit length and diacritics-insensitive', async () => {
    const a = await v2.embedQuery('Zálohování databáze probíhá každou noc.');
    expect(a).toEqual(
      await v2.embedQuery('Zálohování databáze probíhá každou noc.'),
    );
    expect(norm(a)).toBeCloseTo(1, 10);
    expect(
      await simWith(v2, 'zalohovani databaze', 'Zálohování databáze'),
    ).toBeGreaterThan(0.8);
  });
});
