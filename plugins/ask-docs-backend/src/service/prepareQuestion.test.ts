import fs from 'fs';
import os from 'os';
import path from 'path';
import { Analyzers, createLanguageAnalyzers } from '../language';
import { writeDictd } from '../testUtils/dictd';
import { prepareQuestion, rewriteWords } from './prepareQuestion';

describe('prepareQuestion', () => {
  it('gives the vector side the restored spelling of words typed without diacritics', async () => {
    const analyzers = await createLanguageAnalyzers({
      languages: ['en', 'cs'],
    });
    const p = prepareQuestion('Jak ulozit zalozky?', analyzers);
    expect(p.vectorText).toBe('Jak uložit záložky?');
    // Keyword side: stopwords out, the typed word is the only surface key.
    expect(p.queryTokens.map(t => t.token)).toEqual(['ulozit', 'zalozky']);
    expect(p.queryTokens[1].words).toEqual(['zalozky']);
    expect(p.queryTokens[1].lemmas).toContain('zalozka');
    // Text with its diacritics, or English, is left as typed.
    expect(prepareQuestion('Jak uložit záložky?', analyzers).vectorText).toBe(
      'Jak uložit záložky?',
    );
    expect(prepareQuestion('How do I roll back?', analyzers).vectorText).toBe(
      'How do I roll back?',
    );
  });
});

describe('prepareQuestion reads the question in the language it is typed in', () => {
  let analyzers: Awaited<ReturnType<typeof createLanguageAnalyzers>>;
  beforeAll(async () => {
    analyzers = await createLanguageAnalyzers({ languages: ['en', 'cs'] });
  });

  it('never reads an English question as Czech typed without diacritics', () => {
    const p = prepareQuestion(
      'How do I change the date format of the site?',
      analyzers,
    );
    expect(p.vectorText).toBe('How do I change the date format of the site?');
    // No lemma of Czech "dát" (to give) or "síť" (network) among the keys.
    const lemmas = p.queryTokens.flatMap(t => t.lemmas);
    expect(lemmas).not.toContain('dat');
    expect(lemmas).not.toContain('sit');
  });

  it('still reads Czech typed without diacritics as Czech, English words in it or not', () => {
    const vector = (q: string) => prepareQuestion(q, analyzers).vectorText;
    expect(vector('nejde me prihlasit do systemu')).toBe(
      // "me" is a Czech function word typed without its caron: never restored.
      'nejde me přihlásit do systému',
    );
    expect(
      vector('co znamena chyba "permission denied for the table"'),
    ).toMatch(/^co znamená chyba/);
    expect(vector('neni videt seznam her')).toMatch(/vidět/);
    // "/" is no identifier: both words are restored; a word standing alone too.
    expect(vector('jak pridat/odebrat zalozky')).toBe(
      'jak přidat/odebrat záložky',
    );
    expect(vector('soubor zalozky.json a zalozky v prohlizeci')).toMatch(
      / a záložky v prohlíže/,
    );
  });

  it('keeps English words that are Czech function words', () => {
    const tokens = (q: string) =>
      prepareQuestion(q, analyzers).queryTokens.map(t => t.token);
    expect(tokens('Why does the pod restart after the deploy?')).toEqual([
      'pod',
      'restart',
      'deploy',
    ]);
    expect(tokens('Why does the mount of the NAS share fail?')).toContain(
      'nas',
    );
    // In a Czech question they are function words still.
    expect(tokens('Jak spustit server pod jiným uživatelem?')).not.toContain(
      'pod',
    );
  });

  it('marks the words a dictionary knows, in either language, and no misspelling', () => {
    const known = (question: string) =>
      Object.fromEntries(
        prepareQuestion(question, analyzers).queryTokens.map(t => [
          t.token,
          t.dictionaryWord,
        ]),
      );
    // English by WordNet, also inflected; Czech by hunspell, also typed without diacritics.
    expect(known('Which trigger cable works for meals?')).toMatchObject({
      trigger: true,
      cable: true,
      meals: true,
    });
    expect(known('Jak vytvořit korekční vrstvu? zesilit ucinek')).toMatchObject(
      {
        korekční: true,
        vrstvu: true,
        ucinek: true,
      },
    );
    // In a question clearly typed in English, a Czech word is an English misspelling.
    expect(known('How do I set the parametr of the modul?')).toMatchObject({
      parametr: false,
      modul: false,
    });
    expect(known('Jak nastavit parametr modulu?')).toMatchObject({
      parametr: true,
      modulu: true,
    });
    // Misspellings and names no dictionary lists are the words typo correction is for.
    expect(known('keybord statistcs condtion pgaudit')).toEqual({
      keybord: false,
      statistcs: false,
      condtion: false,
      pgaudit: false,
    });
  });

  it('searches for what is asked, without the greeting and the thank-you', () => {
    const p = prepareQuestion(
      "Hi, quick question: how do I rotate a layer? Thanks, I'm stuck!",
      analyzers,
    );
    expect(p.vectorText).toBe('how do I rotate a layer?');
    expect(p.queryTokens.map(t => t.token)).toEqual(['rotate', 'layer']);
    expect(p.smallTalk).toEqual([
      'Hi,',
      'quick question:',
      'Thanks,',
      "I'm stuck!",
    ]);
    // The same question without it is searched for alike.
    const bare = prepareQuestion('how do I rotate a layer?', analyzers);
    expect(bare.queryTokens).toEqual(p.queryTokens);
    expect(bare.smallTalk).toEqual([]);
  });

  it("searches for the asker's situation too, its own words marked as such", () => {
    const p = prepareQuestion(
      'Our team maintains the layer templates. How do I rotate a layer?',
      analyzers,
    );
    expect(p.situation).toEqual(['Our team maintains the layer templates.']);
    // The vector side reads the whole question: the situation may name the topic.
    expect(p.vectorText).toBe(
      'Our team maintains the layer templates. How do I rotate a layer?',
    );
    const marked = (word: string) =>
      p.queryTokens.find(t => t.token === word)?.situation ?? false;
    // In the order they are asked in, the situation's words after them.
    expect(p.queryTokens.map(t => t.token)).toEqual([
      'rotate',
      'layer',
      'team',
      'maintains',
      'templates',
    ]);
    expect(['team', 'maintains', 'templates'].filter(marked)).toHaveLength(3);
    // A word the asking sentence has too is asked.
    expect(marked('layer')).toBe(false);
    expect(marked('rotate')).toBe(false);
    expect(
      prepareQuestion('How do I rotate a layer?', analyzers).situation,
    ).toEqual([]);
    // Typed without diacritics, the situation is read and restored as well.
    const czech = prepareQuestion(
      'Nas tym spravuje sablony vrstev. Jak otocit vrstvu o devadesat stupnu?',
      analyzers,
    );
    expect(czech.situation).toEqual(['Nas tym spravuje sablony vrstev.']);
    expect(czech.vectorText).toBe(
      'Nas tým spravuje šablony vrstev. Jak otočit vrstvu o devadesát stupňů?',
    );
    expect(
      czech.queryTokens.filter(t => t.situation).map(t => t.token),
    ).toEqual(['tym', 'spravuje', 'sablony', 'vrstev']);
  });

  it('restores no part of an identifier', () => {
    const p = prepareQuestion('Co ukazuje pg_stat_io pro zapisy?', analyzers);
    expect(p.vectorText).toBe('Co ukazuje pg_stat_io pro zápisy?');
  });

  it('reads a decomposed question as the composed one', () => {
    const composed = 'Co přineslo vydání Ústředny v Brně?';
    const p = prepareQuestion(composed.normalize('NFD'), analyzers);
    expect(p.vectorText).toBe(composed);
    expect(p).toEqual(prepareQuestion(composed, analyzers));
  });

  it('restores the same words however warm the cache is', () => {
    // Long English words spend the budget; the Czech ones, shorter, are restored first.
    const q =
      'jak na internationalization a infrastructure konfiguraci zalozky v prohlizeci';
    const first = prepareQuestion(q, analyzers).vectorText;
    expect(prepareQuestion(q, analyzers).vectorText).toBe(first);
    expect(first).toMatch(/záložky v prohlíže/);
  });

  it('spends a bounded number of lookups on made-up words', () => {
    let lookups = 0;
    const cs = analyzers.get('cs');
    const restore = cs.restoreDiacritics!.bind(cs);
    const spy = jest
      .spyOn(cs, 'restoreDiacritics')
      .mockImplementation((word, budget) => {
        const before = budget?.lookups ?? 0;
        const found = restore(word, budget);
        lookups += before - (budget?.lookups ?? 0);
        return found;
      });
    try {
      const words = Array.from(
        { length: 16 },
        (_, i) => `nejneobhospodarova${'abcdefghijklmnop'[i]}`,
      );
      prepareQuestion(words.join(' '), analyzers);
      expect(spy).toHaveBeenCalled();
      expect(lookups).toBeLessThanOrEqual(10_000);
      expect(lookups).toBeGreaterThan(5_000);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('prepareQuestion with a bilingual dictionary', () => {
  it("adds the translations' lemma keys to each word, and nothing without one", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prepare-'));
    const files = {
      path: writeDictd(dir, ['page <n>\nstránka', 'navigation <n>\nnavigace']),
      from: 'en',
      to: 'cs',
    };
    const question = 'Jak skrýt stránku z navigace?';
    const plain = prepareQuestion(
      question,
      await createLanguageAnalyzers({ languages: ['en', 'cs'] }),
    );
    const translated = prepareQuestion(
      question,
      await createLanguageAnalyzers({
        languages: ['en', 'cs'],
        bilingualDictionary: files,
      }),
    );
    const lemmas = (p: typeof plain, token: string) =>
      p.queryTokens.find(t => t.token === token)!.lemmas;
    expect(lemmas(translated, 'stránku')).toEqual([
      ...lemmas(plain, 'stránku'),
      'page',
    ]);
    expect(lemmas(translated, 'navigace')).toContain('navigation');
    // One word stays one token: the translation is a key of it, not a word of the question.
    expect(translated.queryTokens.map(t => t.token)).toEqual(
      plain.queryTokens.map(t => t.token),
    );
    expect(lemmas(plain, 'stránku')).not.toContain('page');
    // A word the dictionary lacks, and the stems and vector text, are as without it.
    expect(lemmas(translated, 'skrýt')).toEqual(lemmas(plain, 'skrýt'));
    expect(translated.queryTokens.map(t => t.stems)).toEqual(
      plain.queryTokens.map(t => t.stems),
    );
    expect(translated.vectorText).toBe(plain.vectorText);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('prepareQuestion term bound', () => {
  const letter = (i: number) => String.fromCharCode(97 + (i % 26));
  const words = (n: number) =>
    Array.from(
      { length: n },
      (_, i) => `zq${letter(i)}${letter(Math.floor(i / 26))}x`,
    );

  it('refuses more distinct content words than the limit with a 400 that states it', async () => {
    const analyzers = await createLanguageAnalyzers({ languages: ['en'] });
    expect(
      prepareQuestion(words(64).join(' '), analyzers).queryTokens,
    ).toHaveLength(64);
    expect(() => prepareQuestion(words(65).join(' '), analyzers)).toThrow(
      expect.objectContaining({
        name: 'InputError',
        message: expect.stringMatching(/\(65, at most 64\)/),
      }),
    );
    const three = words(3).join(' ');
    expect(() =>
      prepareQuestion(three, analyzers, { maxQueryTerms: 2 }),
    ).toThrow(/at most 2/);
  });

  it('counts repeated words once and stopwords not at all', async () => {
    const analyzers = await createLanguageAnalyzers({ languages: ['en'] });
    const question = `${'the and of '.repeat(50)}${'review '.repeat(100)}`;
    expect(() =>
      prepareQuestion(question, analyzers, { maxQueryTerms: 1 }),
    ).not.toThrow();
  });
});

describe('rewriteWords', () => {
  it('replaces whole words only, case-insensitively, keeping punctuation', () => {
    const map = new Map([['ledgr', 'ledger']]);
    expect(rewriteWords('Ledgr: where is the ledgr? ledgrs stay.', map)).toBe(
      'ledger: where is the ledger? ledgrs stay.',
    );
    expect(rewriteWords('nothing to do', new Map())).toBe('nothing to do');
  });
});

describe('prepareQuestion: what the typo step reads of the typed words', () => {
  let analyzers: Analyzers;
  beforeAll(async () => {
    analyzers = await createLanguageAnalyzers({ languages: ['en', 'cs'] });
  });
  const flags = (question: string) =>
    Object.fromEntries(
      prepareQuestion(question, analyzers).queryTokens.map(t => [
        t.token,
        [t.capitalised, t.britishSpelling],
      ]),
    );

  it('marks words typed capitalised, read as tokenize reads them', () => {
    expect(flags("Does Gradle send E-Mail to O'Reilly via pgBouncer?")).toEqual(
      {
        gradle: [true, false],
        send: [false, false],
        email: [true, false],
        "o'reilly": [true, false],
        pgbouncer: [false, false],
      },
    );
  });

  it('marks the British spelling of an English word, not a slip that looks British', () => {
    expect(flags('parallelise versoin isntalled surpised')).toEqual({
      parallelise: [false, true],
      versoin: [false, false],
      isntalled: [false, false],
      surpised: [false, false],
    });
  });
});
