import { czechLanguage } from './czechAnalyzer';
import { englishLanguage } from './englishAnalyzer';
import { genericLanguage } from './createLanguageAnalyzers';
import { sentences, splitSituation } from './situation';

const profiles = [englishLanguage.profile, czechLanguage.profile];
const split = (text: string) => splitSituation(text, profiles);

describe('sentences', () => {
  it('ends a sentence after ? ! and a full stop that ends a word', () => {
    expect(sentences('We moved. How? Now!  Then')).toEqual([
      'We moved.',
      'How?',
      'Now!',
      'Then',
    ]);
  });

  it('reads a message across its line breaks, with lower-case sentence starts', () => {
    expect(sentences('We moved the\ncluster. how do I copy\nit?')).toEqual([
      'We moved the\ncluster.',
      'how do I copy\nit?',
    ]);
  });

  it('does not end one at an ellipsis or an abbreviation', () => {
    expect(
      sentences('can I run vacuum inside a BEGIN ... COMMIT block?'),
    ).toHaveLength(1);
    expect(
      sentences('Use e.g. PostgreSQL 17 or i.e. the newest.'),
    ).toHaveLength(1);
    expect(sentences('Jak založit s.r.o. a kolik to stojí?')).toHaveLength(1);
    expect(sentences('Porovnej MySQL vs. PostgreSQL, tj. výkon.')).toHaveLength(
      1,
    );
  });
});

describe('splitSituation', () => {
  it('reads a statement before or after the question as the situation', () => {
    expect(
      split(
        'We are migrating our internal services this quarter. ' +
          'How do I create a tablespace on another disk?',
      ),
    ).toEqual({
      asked: 'How do I create a tablespace on another disk?',
      situation: ['We are migrating our internal services this quarter.'],
    });
    expect(
      split(
        'How do I merge two layers? We need it for a customer project next week.',
      ),
    ).toEqual({
      asked: 'How do I merge two layers?',
      situation: ['We need it for a customer project next week.'],
    });
  });

  it('knows a question without a question mark by its first word, in either language', () => {
    expect(
      split(
        'I am updating the onboarding guide. how to exclude table data from pg_dump',
      ).situation,
    ).toEqual(['I am updating the onboarding guide.']);
    expect(
      split(
        'Po včerejší aktualizaci nám přestaly fungovat skripty. jak prichytit vrstvu k mrizce',
      ),
    ).toEqual({
      asked: 'jak prichytit vrstvu k mrizce',
      situation: ['Po včerejší aktualizaci nám přestaly fungovat skripty.'],
    });
    expect(
      split(
        'Aktualizujeme příručku pro nové kolegy. Vysvětli, jak funguje navigace v mkdocs.yml.',
      ).situation,
    ).toEqual(['Aktualizujeme příručku pro nové kolegy.']);
    expect(
      split('Our team keeps the wiki. Explain the nav section of mkdocs.yml.')
        .situation,
    ).toEqual(['Our team keeps the wiki.']);
  });

  it('reads a search-box query beside written sentences as what is asked', () => {
    expect(
      split(
        'I am updating the onboarding guide for new engineers. pg_dump exclude table data',
      ),
    ).toEqual({
      asked: 'pg_dump exclude table data',
      situation: ['I am updating the onboarding guide for new engineers.'],
    });
    expect(
      split(
        'scale a layer without distorting the proportions. Our team maintains the website.',
      ).situation,
    ).toEqual(['Our team maintains the website.']);
  });

  it('finds a written sentence run on after a query without its full stop', () => {
    expect(
      split(
        'fill a line drawing without gaps near the lines We need it for a project next week.',
      ),
    ).toEqual({
      asked: 'fill a line drawing without gaps near the lines',
      situation: ['We need it for a project next week.'],
    });
    expect(
      split(
        'jak vratit vice kroku najednou Nas tym spravuje reportingovou databazi.',
      ).situation,
    ).toEqual(['Nas tym spravuje reportingovou databazi.']);
    // Not when what follows asks, or is too short for a statement.
    expect(
      split('merge two layers into one How do I keep the masks?').situation,
    ).toEqual([]);
    expect(split('merge two layers into one We can.').situation).toEqual([]);
  });

  it('keeps a situation that names a constraint as a sentence of its own', () => {
    expect(
      split('We run Oracle in production. How do I create a tablespace?'),
    ).toEqual({
      asked: 'How do I create a tablespace?',
      situation: ['We run Oracle in production.'],
    });
  });

  // What must stay one question: the statement is what is asked about.
  it.each([
    // The asking sentence has fewer than two content words of its own.
    'V logu se občas objeví hláška, že checkpointy jsou moc časté a mám zvýšit max_wal_size. ' +
      'Mám se bát?',
    'Chci dokumentaci rozdávat jako soubory přes file://. Co musím nastavit?',
    'The import fails with a duplicate key error on every run. What should I do?',
    'We have two layers with text on them. How do I merge them?',
    // A statement of the problem, not of the asker.
    'Tablespaces are full on the main disk. How do I move tables to another disk?',
    'The connection to the replica times out after ten seconds. ' +
      'What should I change in the config file?',
    'Autovacuum never finishes on the orders table. Which parameters should I tune first?',
    'Layer masks disappear after export to PSD. Is this a known bug in the current release?',
    'Vrstva se po exportu do PDF posune. Jak opravit nastavení tisku?',
    'Po včerejší aktualizaci přestaly fungovat skripty. Jak přichytit vrstvu k mřížce?',
    // Words that only look like the first person: Czech third person plural "-ují", nouns and
    // adjectives in "-mě"/"-mé", "kromě"; English "I/O" and "US"; Czech "i" ("and").
    'Indexy fungují pomalu na velkých tabulkách. Jak zrychlit dotazy na tabulky?',
    'Dokumentace je ve formě PDF souborů. Jak převést stránky do HTML?',
    'Přímé připojení k databázi padá každou noc. Jak nastavit timeout spojení?',
    'Disk I/O is slow on the replica. How do I tune checkpoint spreading?',
    'The US region replica lags behind. How do I measure replication lag?',
    'Tabulky i indexy rostou rychle. Jak nastavit partitioning tabulek?',
    'Runtime volume grows quickly. How do I shrink the write-ahead log?',
    // About the asker, but with an identifier or a quotation: what is asked about.
    'The docs mention a setting we use called idle_session_timeout. ' +
      'Where do I set the value per role?',
    'I get "permission denied for schema public" when creating tables. How do I grant access?',
    'We run pg_dump --jobs 4 every night. Which options speed up the restore?',
    // The asking sentence points back at the statement.
    'Our logical replication slots keep growing. How do I drop them while they are active?',
    // A topic announced as a question about it.
    'I have a question about our logical replication slots. How do I list the inactive ones?',
    'Mám dotaz ohledně našich replikačních slotů. Jak vypsat neaktivní sloty?',
    'We keep our invoices in a jsonb column. How do I index it for containment queries?',
    'Dostávám chybu při exportu našeho webu. Jak to opravit v nastavení tisku?',
    // An open question or a goal is asked, not a situation.
    "I'm wondering how to configure the proxy for our builds. Which file holds the settings?",
    'Nevím, jak nastavit proxy pro naše sestavení. Který soubor drží nastavení?',
    'I want to back up the whole cluster. Which command should I use for large tables?',
    "I'd really like to serve the docs offline. Which plugin does that best?",
    'Chci nastavit zálohování. Který nástroj použít pro velké tabulky?',
    // A topic, not a statement.
    'Tablespaces. How do I move one to another disk?',
    // Nothing asks by its form, and no query is typed as one.
    'I am updating the onboarding guide. Pg_dump excludes table data.',
    'we moved the cluster. the export ignores the table data',
    // Two search-box queries (typed lower-case): which one asks is not known.
    'We moved the cluster. pg_dump exclude table data. restore into another schema',
    // A name after a lower-case word starts no sentence; "I" neither.
    'how do I reach the Search page from The Hague office',
    'how do I reach the Search page from The Hague office. thanks.',
    'configure the scheduler when I deploy to production twice a day',
    // A pronoun that starts a name is no sentence run on ("My Little Helper").
    'how do I add the plugin My Little Helper to the portal sidebar.',
    'where do I announce talks in the newsletter called This Week in Rust.',
    // English "to" points back at nothing; Czech "i" is no English "I".
    'Po aktualizaci i skripty přestaly fungovat. Jak nastavit proxy pro sestavení webu?',
    // One sentence.
    'my UPDATE ... FROM join matches several rows per target row, what happens?',
    'Jak založit s.r.o. a kolik to stojí?',
    'E.g. PostgreSQL 17. What is new in it?',
  ])('keeps %j whole', question => {
    expect(split(question)).toEqual({ asked: question, situation: [] });
  });

  it('reads the function words of the language a sentence is in', () => {
    // "to" is English here, not the Czech word that points back.
    expect(
      split('We maintain the wiki. How to exclude table data from pg_dump?')
        .situation,
    ).toEqual(['We maintain the wiki.']);
  });

  it('reads a long message, its abbreviations and run-on pronouns too', () => {
    const runOn = `fill the gaps ${'a We '.repeat(2000)}x.`;
    expect(split(`${runOn} How do I move tables?`).asked).toContain(
      'How do I move tables?',
    );
    const dotted = `We moved ${'e.g. '.repeat(
      2000,
    )}everything. How do I move tables?`;
    expect(sentences(dotted)).toHaveLength(2);
    expect(split(dotted).situation).toHaveLength(1);
  });

  it('splits nothing for a language without asking words', () => {
    const generic = genericLanguage('de').profile;
    const question =
      'We moved our services last month. How do I create a tablespace?';
    expect(splitSituation(question, [generic])).toEqual({
      asked: question,
      situation: [],
    });
  });

  it("reads an adopter's language by its own asking words, compared folded", () => {
    // Written with their diacritics and capitals, as an adopter would list them.
    const german = genericLanguage('de', {
      stopwords: new Set([
        'wir',
        'unsere',
        'die',
        'in',
        'diesem',
        'ich',
        'eine',
        'wie',
        'an',
        'und',
      ]),
      asking: {
        starts: new Set(['Wie', 'Wo', 'Erklär']),
        leading: new Set(['Und']),
        goals: new Set(['möchte']),
        goalLink: word => word === 'zu',
        subjects: new Set(['Wir']),
        firstPerson: word => ['ich', 'wir', 'unsere'].includes(word),
        anaphors: new Set(['Es']),
      },
    }).profile;
    const split = (text: string) => splitSituation(text, [german]);
    expect(
      split(
        'Wir migrieren unsere Dienste in diesem Quartal. Wie lege ich eine Tabelle an?',
      ),
    ).toEqual({
      asked: 'Wie lege ich eine Tabelle an?',
      situation: ['Wir migrieren unsere Dienste in diesem Quartal.'],
    });
    // Its "erklär" compares folded, and its "es" points back.
    expect(
      split('Wir migrieren unsere Dienste. Erklär die Tabellen und Spalten.')
        .situation,
    ).toEqual(['Wir migrieren unsere Dienste.']);
    expect(
      split('Wir migrieren unsere Dienste. Wie lege ich es an?').situation,
    ).toEqual([]);
  });
});
