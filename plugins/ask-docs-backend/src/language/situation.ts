/**
 * Sentences about the asker's situation around what they ask: "We are migrating our services this
 * quarter. How do I …?", "… It is for a customer project I run next week." Read as the
 * question's, their words (absent from the docs) made the evidence decision refuse most
 * answerable questions (decision record 0009, seventeenth round). Unlike small talk they are not
 * left out: such a sentence may touch what is asked about or a constraint ("We run Oracle."), so
 * its words still rank passages at a lower weight and its names are still sought; only the
 * evidence decision does not hold a passage's lack of them against it.
 *
 * Which sentence asks is read from its form, never from the docs: it has a question mark, starts
 * with a question word or a request ("how", "explain", "jak", "vysvětli"), or states a goal or an
 * open question ("I want to …", "Chci nastavit …", "I wonder how …", "Nevím, jak …"). A sentence
 * is the asker's situation only when it speaks of the asker ("we", "our", "I", "náš",
 * "migrujeme") and names no identifier or quotation; and a message is split only when the asking
 * sentences hold two content words of their own and none is a short question that points back
 * ("How do I index it?"). What stays one question: a statement of the problem ("Autovacuum never
 * finishes on the orders table. Which parameters should I tune?"), "The log says checkpoints
 * occur too often. Should I worry?", "We have two layers. How do I merge them?".
 *
 * Lowercase, folded (no diacritics), as the words are compared.
 */
import { splitSentences } from '../ingestion/parsing/sentences';
import { foldedStopwords, wordList } from './smallTalk';
import { foldDiacritics, tokenize } from './tokenize';
import type { LanguageProfile } from './types';

/** How a language's sentences ask: first words and goal phrases. */
export interface AskingWords {
  /** A sentence starting with one of these asks ("how", "which", "explain", "jak", "popiš"). */
  starts: ReadonlySet<string>;
  /** Words a sentence may start with before its first real word ("and", "so", "a", "tak"). */
  leading: ReadonlySet<string>;
  /** Verbs of wanting, trying or knowing ("want", "wonder", "chci", "nevím"). */
  goals: ReadonlySet<string>;
  /**
   * Whether a word after a goal verb makes the sentence a goal or an open question: English "to"
   * ("I need to …") or a question word ("I wonder how …"), a Czech infinitive ("Chci nastavit
   * …") or question word ("Nevím, jak …"). "We need it for a project" is no goal.
   */
  goalLink(word: string): boolean;
  /**
   * Pronouns and possessives a statement starts with ("we", "our", "it", "náš"): capitalised
   * after a lower-case word, they start a sentence run on without its full stop. Never a name's
   * first word, as "The" is ("The Hague").
   */
  subjects: ReadonlySet<string>;
  /**
   * Whether a word (lowercase, as typed) speaks of the asker: "I", "we", "our"; "náš", "nám".
   * `alone`: the sentence is read in this language only, so a word's ending may say it too (a
   * Czech verb in "-eme", "-íme" or "-uji"; not in a tie with English "scheme").
   */
  firstPerson(word: string, alone: boolean): boolean;
  /**
   * Words by which a short asking sentence points back at another ("it", "them", "to", "ho"):
   * the other sentence is then what is asked about.
   */
  anaphors: ReadonlySet<string>;
}

/** A language's asking words as situation.ts compares them: lowercase, folded. */
export function foldedAsking(asking: AskingWords): AskingWords {
  const fold = (set: ReadonlySet<string>) =>
    new Set([...set].map(w => foldDiacritics(w.toLowerCase())));
  return {
    ...asking,
    starts: fold(asking.starts),
    leading: fold(asking.leading),
    goals: fold(asking.goals),
    subjects: fold(asking.subjects),
    anaphors: fold(asking.anaphors),
  };
}

const ENGLISH_QUESTION_WORDS = wordList(
  'how what why when where which who whether if',
);
const ENGLISH_FIRST_PERSON = wordList(
  "i i'm i've i'd i'll me my mine myself we we're we've we'd we'll us our ours ourselves",
);

export const ENGLISH_ASKING: AskingWords = {
  starts: wordList(`
    how what what's whats why when where which who whom whose can could would should shall will
    may might must is are was were do does did have has am isn't aren't doesn't don't didn't can't
    won't shouldn't wouldn't couldn't any explain show tell describe list give help compare
    recommend suggest find walk guide point please summarise summarize define clarify outline
  `),
  leading: wordList('and but so also or then now ok okay'),
  goals:
    wordList(`want wants wanted need needs needed like trying try tried hoping hope plan
    planning looking wonder wondering know sure understand figure question`),
  // "I'd like to", "I really need to": the infinitive's "to"; "I wonder how", "not sure which":
  // a question word; "a question about": what it is about.
  goalLink: word =>
    word === 'to' ||
    word === 'about' ||
    word === 'regarding' ||
    ENGLISH_QUESTION_WORDS.has(word),
  subjects: wordList(
    'we our my it this that they their these those he she his her you your',
  ),
  firstPerson: word => ENGLISH_FIRST_PERSON.has(word),
  anaphors: wordList('it this these those them they such'),
};

// A Czech infinitive: -t, -ti or -ct, as in "nastavit", "zálohovat", "péct".
const CZECH_INFINITIVE = /^\p{L}{2,}(?:t|ti|ct)$/u;
const CZECH_QUESTION_WORDS = wordList(
  'jak co proc kde kdy kdo ktery ktera ktere kolik zda jestli',
);
const CZECH_FIRST_PERSON_VERB = /^\p{L}{3,}(?:eme|íme|áme|ime|ame|uji|uju)$/u;
const CZECH_FIRST_PERSON =
  wordList(`ja my mi me mne nam nas nasi nase naseho nasemu nasem nasim
  nasich muj moje meho mem mym jsem jsme mam mame`);

export const CZECH_ASKING: AskingWords = {
  starts: wordList(`
    jak co proc kde kdy kdo ktery ktera ktere kteri kterou kolik cim ceho cemu kam odkud jaky jaka
    jake jaci jakou jakym lze da je jde muzu mohu muzeme musim musime mam mame existuje funguje
    vysvetli vysvetlete ukaz ukazte rekni reknete popis popiste porad poradte pomoz pomozte najdi
    najdete doporuc doporucte porovnej porovnejte prosim shrn shrnte
  `),
  leading: wordList('a ale tak takze nebo i no'),
  goals:
    wordList(`chci chceme chtel chtela chteli potrebuji potrebuju potrebujeme snazim snazime
    zkousim zkousime rad rada radi nevim nevime vim zajima zajimalo premyslim dotaz otazku`),
  goalLink: word =>
    CZECH_INFINITIVE.test(word) ||
    CZECH_QUESTION_WORDS.has(word) ||
    word === 'ohledne',
  // A verb in the first person plural ("migrujeme", "řešíme") or singular in "-uji"
  // ("aktualizuji"), with its diacritics: "fungují", "formě", "známé" are none.
  firstPerson: (word, alone) =>
    CZECH_FIRST_PERSON.has(foldDiacritics(word)) ||
    (alone && CZECH_FIRST_PERSON_VERB.test(word)),
  anaphors: wordList(
    'to ho ji jej ten tu tom tim toho tomu tam tohle toto tento tuto tyto tyhle',
  ),
  subjects:
    wordList(`my nas nase naseho nasem nasi ja muj moje me to tohle toto ten tento tato ta
    oni ony vy vas vase`),
};

/** Words a goal verb may stand apart from its link ("I'd really like to", "chci si nastavit"). */
const GOAL_WINDOW = 3;
/** Content words the asking sentences need for the rest to be read as the asker's situation. */
export const MIN_ASKING_CONTENT_WORDS = 2;
/** Content words up to which an asking sentence with a pronoun leans on another sentence. */
const MAX_POINTING_BACK_WORDS = 3;
/** A shorter statement is a topic ("Tablespaces."), not a situation. */
const MIN_SITUATION_WORDS = 3;

/**
 * The message's sentences, as the documents' are read (ingestion/parsing/sentences.ts: after
 * . ! ? and white space, not after an abbreviation or initials), but a line break is no boundary
 * (a chat message wraps its sentences), nor is an ellipsis (a question elides with it: "UPDATE
 * ... FROM"), and a sentence may start in lower case.
 */
export function sentences(text: string): string[] {
  // Same length, so the spans index the message as typed.
  const oneLine = text
    .replace(/[\r\n]/g, ' ')
    .replace(/\.{2,}|…/g, m => ','.repeat(m.length));
  return splitSentences(oneLine, { chat: true })
    .map(s => text.slice(s.start, s.end))
    .filter(s => s.trim());
}

function asks(sentence: string, asking: readonly AskingWords[]): boolean {
  if (sentence.includes('?')) return true;
  const ws = tokenize(sentence).map(foldDiacritics);
  return asking.some(a => {
    const first = a.leading.has(ws[0]) ? 1 : 0;
    if (a.starts.has(ws[first])) return true;
    return ws.some(
      (w, i) =>
        a.goals.has(w) && ws.slice(i + 1, i + 1 + GOAL_WINDOW).some(a.goalLink),
    );
  });
}

/** A message read into what it asks and the asker's situation around it. */
export interface SituationSplit {
  /** The asking sentences, joined; the whole message when it was not split. */
  asked: string;
  /** The sentences about the asker's situation, as typed; empty when not split. */
  situation: string[];
}

// An identifier, an option or a quotation: what is asked about, not the asker's situation.
const CODE_OR_QUOTE = /["„“”«»`]|\w_\w|(?:^|\s)--?\w|\w\(\)/u;
// A sentence as written: a capital first, a full stop or "!" last (closing quotes aside).
const STATEMENT_END = /[.!]["'”’»)\]]*\s*$/u;
const STATEMENT = /^[^\p{L}\p{N}]*\p{Lu}[^]*[.!]["'”’»)\]]*$/u;
/** Capitalised pronouns tried as the start of a run-on statement in one sentence. */
const MAX_RUN_ON_TRIES = 3;
// A search-box query: typed without the capital first.
const QUERY = /^[^\p{L}\p{N}]*[\p{Ll}\p{N}]/u;

/**
 * Splits off the sentences about the asker's situation: those that do not ask, of
 * MIN_SITUATION_WORDS words or more with a content word and a word of the first person, without
 * an identifier or a quotation, in a message whose asking sentences hold MIN_ASKING_CONTENT_WORDS
 * content words and none of which is a short question with a pronoun (MAX_POINTING_BACK_WORDS).
 * Anything else stays one question.
 *
 * Two more ways a query is typed count too: a search-box query beside written sentences ("We are
 * migrating our services. scale a layer without distorting it"), typed without the capital, is
 * what is asked; a written sentence run on after a query without the full stop ("… without gaps
 * We need it next week.") starts at a capitalised pronoun, which only a sentence's start
 * capitalises ("We", "Our", "Náš"; not "I").
 */
export function splitSituation(
  text: string,
  profiles: readonly LanguageProfile[],
): SituationSplit {
  const whole = { asked: text, situation: [] };
  const asking = profiles.flatMap(p => (p.asking ? [p.asking] : []));
  // The languages a sentence's words are read in: those with the most of its function words
  // (English "to" is no Czech "to", Czech "i" no English "I").
  const readAs = (ws: readonly string[]) => {
    const counts = profiles.map(p =>
      p.asking ? ws.filter(w => foldedStopwords(p).has(w)).length : -1,
    );
    const most = Math.max(...counts);
    return profiles.flatMap((p, i) =>
      p.asking && counts[i] === most ? [p.asking] : [],
    );
  };
  if (asking.length === 0) return whole;
  const functionWord = (w: string) =>
    profiles.some(p => foldedStopwords(p).has(w));
  const content = (s: string) =>
    tokenize(s)
      .map(foldDiacritics)
      .filter(w => !functionWord(w));
  const statement = (s: string) => STATEMENT.test(s.trim()) && !asks(s, asking);
  const subject = (w: string) => asking.some(a => a.subjects.has(w));
  const parts = sentences(text)
    .flatMap(s => runOn(s, subject, statement))
    .map(s => ({ s, asks: asks(s, asking) }));
  if (!parts.some(p => p.asks)) {
    const fragments = parts.filter(p => QUERY.test(p.s.trim()));
    if (
      fragments.length === 1 &&
      parts.every(p => p === fragments[0] || statement(p.s))
    )
      fragments[0].asks = true;
  }
  const folded = (sentence: string) => tokenize(sentence).map(foldDiacritics);
  const situation = parts.filter(p => {
    if (p.asks || CODE_OR_QUOTE.test(p.s)) return false;
    const ws = folded(p.s);
    const languages = readAs(ws);
    return (
      ws.length >= MIN_SITUATION_WORDS &&
      content(p.s).length > 0 &&
      languages.some(a =>
        personWords(p.s, languages.length > 1).some(w =>
          a.firstPerson(w, languages.length === 1),
        ),
      )
    );
  });
  const asked = parts.filter(p => p.asks);
  const askedWords = new Set(asked.flatMap(p => content(p.s)));
  // A short question that leans on a pronoun ("How do I index it for containment queries?");
  // a longer one names what its pronoun means ("… still connected to it").
  const pointsBack = asked.some(p => {
    const ws = folded(p.s);
    return (
      content(p.s).length <= MAX_POINTING_BACK_WORDS &&
      readAs(ws).some(a => ws.some(w => a.anaphors.has(w)))
    );
  });
  if (
    situation.length === 0 ||
    askedWords.size < MIN_ASKING_CONTENT_WORDS ||
    pointsBack
  )
    return whole;
  return {
    asked: parts
      .filter(p => !situation.includes(p))
      .map(p => p.s)
      .join(' '),
    situation: situation.map(p => p.s),
  };
}

/**
 * A sentence's words for telling whether it speaks of the asker, lowercase: without acronyms
 * ("US", "IO") and "I/O", and, in a sentence as Czech as it is English, without a lower-case
 * "i" (Czech "and", "also").
 */
function personWords(sentence: string, tie: boolean): string[] {
  let text = sentence
    .replace(
      /(?<![\p{L}\p{N}])(?:\p{Lu}{2,}|I\/[\p{L}\p{N}]+)(?![\p{L}\p{N}])/gu,
      ' ',
    )
    .normalize('NFC');
  if (tie) text = text.replace(/(?<![\p{L}\p{N}'’])i(?![\p{L}\p{N}'’])/gu, ' ');
  return tokenize(text);
}

/**
 * A sentence with a written statement run on after it without its full stop, as two: at the first
 * lower-case letter, white space and a capitalised pronoun ("…the lines We need it."), when
 * what follows is a statement of MIN_SITUATION_WORDS words or more.
 */
function runOn(
  sentence: string,
  subject: (word: string) => boolean,
  statement: (s: string) => boolean,
): string[] {
  // Only a sentence that ends as a statement can have one run on; and a few tries at most.
  if (!STATEMENT_END.test(sentence)) return [sentence];
  let tries = 0;
  for (const m of sentence.matchAll(
    /(?<=\p{Ll})\s+(?=(\p{Lu}\p{Ll}*)(?![\p{L}\p{N}'’])(\s+\p{Lu})?)/gu,
  )) {
    const word = foldDiacritics(m[1].toLowerCase());
    // A capitalised word after it makes a name of both ("My Little Helper", "This Week in Rust").
    if (!subject(word) || m[2]) continue;
    if (++tries > MAX_RUN_ON_TRIES) break;
    const tail = sentence.slice(m.index! + m[0].length);
    if (tokenize(tail).length >= MIN_SITUATION_WORDS && statement(tail))
      return [sentence.slice(0, m.index), tail];
  }
  return [sentence];
}
