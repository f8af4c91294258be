/**
 * Small talk around a question: a greeting, a thank-you, an apology, a reason for asking ("Hi,
 * quick question:", "Thanks!", "Zasekl jsem se v práci."). A clause made only of such words is
 * not what is asked; its words, absent from the docs, made the evidence decision refuse answerable
 * questions (decision record 0009, fifteenth round). A clause needs a word only small talk uses
 * ("thanks", "anyone", "stuck"): "PostgreSQL 17, what's new?" and "how does it work?" ask
 * something. A word of these lists inside a clause with other words ("Quick Mask", "the Help
 * menu") stays.
 *
 * Lowercase, folded (no diacritics), as the words are compared. Grouped by what they do in a
 * chat message.
 */
import { foldDiacritics, tokenize } from './tokenize';
import type { LanguageProfile } from './types';

/**
 * Words only small talk uses (greetings, thanks, apologies, addressing "anyone", "quick
 * question", "stuck"), and greeting pairs: a clause needs one to be small talk.
 */
const ENGLISH_MARKERS = `
  hi hello hey hiya howdy greetings thanks thank thx cheers appreciate appreciated grateful
  sorry apologies apologise apologize newbie noob anyone anybody someone somebody everyone
  everybody folks guys question questions stuck confused struggling googled wondering luck
  good_morning good_afternoon good_evening
`;
/** Words small talk shares with questions ("new", "work", "help"): never enough alone. */
const ENGLISH_COMPANIONS = `
  good dear all morning afternoon evening people team advance excuse obvious dumb stupid silly
  basic beginner new quick help know knows wonder idea ideas advice tip tips hint hints pointer
  pointers suggestion suggestions clue lost trying tried figure figured find found looked
  searched ask asking asked need needed want wants wanted something anything thing work job boss
  colleague colleagues coworker coworkers manager just really actually basically anyway ok okay
  well yeah yes bit little here around couldn't can't didn't doesn't don't won't wasn't isn't
  i'm i've i'd
`;
const CZECH_MARKERS = `
  ahoj cau cus zdravim zdravime diky dik dekuji dekuju dekujeme prominte promin pardon omlouvam
  omluva nekdo nevite poradi poradte pomozte dotaz dotazek zasekl zasekla zasekli zaseknuty
  hloupost blbost zacatecnik zacatecnice ptam ptaji nenasel nenasla
  dobry_den dobre_rano dobry_vecer
`;
const CZECH_COMPANIONS = `
  dobry dobre dobra den rano vecer odpoledne vsem vsichni lidi kolego kolegove kolega kolegu
  kolegy kolegum tym tyme predem moc hloupa hloupy blba blby novy nova nove otazka otazku rychly
  rychla rychle pomoc pomoct pomuze poradit rada radu rady nikdo vite nevi vim nevim hledal
  hledala hledam hledali nasel nasla sam sama pta zeptat sef prace praci potrebuji potrebuju
  chci chtel chtela neco nic jen jenom vlastne tak no fakt
`;

/** A word list written as text, folded ("good_morning" is the pair "good morning"). */
export function wordList(list: string): ReadonlySet<string> {
  return new Set(
    list
      .split(/\s+/)
      .filter(Boolean)
      .map(w => foldDiacritics(w.replace(/_/g, ' '))),
  );
}

/** A language's small talk: marker words and pairs ("good morning"), and their companions. */
export interface SmallTalkWords {
  markers: ReadonlySet<string>;
  companions: ReadonlySet<string>;
  /**
   * Words of asking or wanting to know ("asked", "wants", "know", "ptají", "zajímá"): a lead-in
   * before a colon with one says why the question comes, not what it is about ("My team asked
   * me to find out:"), where "Team:" or "New job:" name the topic. Without them no lead-in is
   * left out.
   */
  reasons?: ReadonlySet<string>;
  /**
   * Sign-offs of thanks ("thanks", "thanks in advance", "díky předem"), each a phrase of words
   * separated by spaces: one that ends a clause after an asked word is small talk even typed
   * without punctuation or capital, as chat messages often are ("… vacuum a table thanks").
   * Whole phrases, so "how to pay in advance" keeps its words. Without them only a punctuated
   * or capitalised tail is found.
   */
  signOff?: ReadonlySet<string>;
  /**
   * Words a noun follows (articles, possessives, Czech prepositions): after one, words of thanks
   * are what is asked about ("how do I add a thank you", "poslat e-mail s díky"), not a
   * sign-off.
   */
  beforeNoun?: ReadonlySet<string>;
}

/**
 * Sign-offs: each word of thanks alone, after a word that goes before it ("many thanks",
 * "předem díky") or before one that follows it ("thanks in advance", "děkuju za radu"). Lists
 * as wordList reads them.
 */
function signOffs(thanks: string, before: string, after: string) {
  const list = (text: string) => text.split(/\s+/).filter(Boolean);
  return wordList(
    list(thanks)
      .flatMap(t => [
        t,
        ...list(before).map(b => `${b}_${t}`),
        ...list(after).map(a => `${t}_${a}`),
      ])
      .join(' '),
  );
}

export const ENGLISH_SMALL_TALK: SmallTalkWords = {
  markers: wordList(ENGLISH_MARKERS),
  companions: wordList(ENGLISH_COMPANIONS),
  reasons:
    wordList(`ask asks asked asking want wants wanted need needs needed know knows
    wonder wondering wondered find figure trying curious question questions`),
  signOff: signOffs(
    'thanks thank_you thx cheers much_appreciated',
    'many',
    `in_advance a_lot so_much very_much again for_the_help for_your_help`,
  ),
  // Not prepositions: an English question can end in one ("what is it used for thanks").
  // Nor conjunctions: "… and thanks in advance" signs off after "and".
  beforeNoun: wordList(
    `a an the my your our their his her its every each another`,
  ),
};
export const CZECH_SMALL_TALK: SmallTalkWords = {
  markers: wordList(CZECH_MARKERS),
  companions: wordList(CZECH_COMPANIONS),
  reasons:
    wordList(`pta ptam ptaji ptal ptala ptali zeptat chci chce chteji chtel potrebuji
    potrebuju potrebuje hledam hledal zajima zajimalo vedet zjistit dotaz otazka otazku`),
  signOff: signOffs(
    'diky dik dekuji dekuju dekujeme',
    'moc predem mockrat',
    'moc predem mockrat za_radu za_pomoc za_odpoved',
  ),
  // Not conjunctions: "… a předem díky" signs off after "and".
  beforeNoun:
    wordList(`s se z ze k ke o u pro bez na do od po při přes mezi můj moje tvůj tvoje náš
    naše váš vaše jeho její jejich svůj svoje`),
};

/**
 * A clause whose end is a sentence of small talk typed without the full stop before it ("… bulk
 * load rows Sorry if this is basic.", "… column Thanks!"): split where a capitalised word (not
 * "I") follows a lower-case one and the rest is small talk. One word counts only with "!": "open
 * the Help" names a menu. Sign-offs of thanks (`signOff`) after an asked word are split off
 * wherever they start ("… a table thanks in advance").
 */
function splitUnpunctuated(
  clause: string,
  chat: (text: string) => boolean,
  smallTalkWord: (word: string) => boolean,
  signOff: (phrase: string) => boolean,
  thanksAsNoun: (phrase: string, before: string) => boolean,
): string[] {
  // The runs tokenize() reads as words: it drops invisible characters inside them (a soft
  // hyphen) and joins them across hyphens.
  const runs: Run[] = [];
  for (const m of clause.matchAll(
    /(?:(?!\s)[\p{L}\p{M}\p{N}\p{Default_Ignorable_Code_Point}'’ʼ\-‐‑])+/gu,
  )) {
    const words = tokenize(m[0]).map(foldDiacritics);
    if (words.length === 0) continue;
    const asks = words.some(w => !smallTalkWord(w));
    runs.push({ start: m.index!, end: m.index! + m[0].length, words, asks });
  }
  // Sign-offs from the end, each after an asked word ("… a table Sorry thanks"); their words
  // need not be small talk ("lot", "again"). Without an asked word before it the clause is
  // small talk and a sign-off, which chat() reads whole ("Předem díky za radu").
  const tails: string[] = [];
  let head = runs.length;
  let headEnd = clause.length;
  for (;;) {
    const first = signOffStart(clause, runs.slice(0, head), headEnd, signOff);
    if (first === undefined || !runs.slice(0, first).some(r => r.asks)) break;
    const phrase = runs.slice(first, head).flatMap(r => r.words);
    if (thanksAsNoun(phrase.join(' '), runs[first - 1].words.at(-1)!)) break;
    tails.unshift(clause.slice(runs[first].start, headEnd));
    head = first;
    headEnd = runs[first - 1].end;
  }
  return [
    ...capitalisedTail(
      clause.slice(0, headEnd),
      runs.slice(0, head),
      chat,
      thanksAsNoun,
    ),
    ...tails,
  ];
}

/** A word run of a clause: where it is, its words (folded), and whether one is asked. */
interface Run {
  start: number;
  end: number;
  words: string[];
  asks: boolean;
}

/**
 * The small-talk sentence a capitalised word starts after the clause's last asked word, typed
 * without the full stop before it. A tail is small talk only after that word, and the longest
 * such tail is the one to try: one check, not one per capital (a 2,000-character question took
 * 50 ms).
 */
function capitalisedTail(
  clause: string,
  runs: readonly Run[],
  chat: (text: string) => boolean,
  thanksAsNoun: (phrase: string, before: string) => boolean,
): string[] {
  const asked = runs.filter(r => r.asks).pop()?.end ?? 0;
  // English "I" is capitalised anywhere: "… although I didn't ask for it" is one sentence.
  const boundary = /(?<=\p{Ll})\s+(?=\p{Lu})(?!I\b)/gu;
  boundary.lastIndex = asked;
  const m = boundary.exec(clause);
  if (!m) return [clause];
  const tail = clause.slice(m.index + m[0].length);
  const before = tokenize(clause.slice(0, m.index)).map(foldDiacritics).pop();
  const phrase = tokenize(tail).map(foldDiacritics).join(' ');
  return chat(tail) &&
    (tokenize(tail).length > 1 || /!\s*$/.test(tail)) &&
    !(before !== undefined && thanksAsNoun(phrase, before))
    ? [clause.slice(0, m.index), tail]
    : [clause];
}

/**
 * The first run of the longest sign-off phrase that ends the text at `end` (whole runs, apart
 * by spaces, followed by nothing but closing punctuation, after a space or the clause's start:
 * not "path/to/thanks" or a quoted "thanks").
 */
function signOffStart(
  clause: string,
  runs: readonly Run[],
  end: number,
  signOff: (phrase: string) => boolean,
): number | undefined {
  const last = runs.length - 1;
  if (last < 0 || !/^[\s.!?…]*$/u.test(clause.slice(runs[last].end, end)))
    return undefined;
  let found: number | undefined;
  let words: string[] = [];
  // Sign-offs are a few words long: look back over the last five runs at most.
  for (let i = last; i >= Math.max(0, last - 4); i--) {
    if (i < last && !/^\s+$/.test(clause.slice(runs[i].end, runs[i + 1].start)))
      break;
    words = [...runs[i].words, ...words];
    const start = runs[i].start;
    if (
      signOff(words.join(' ')) &&
      (start === 0 || /\s/.test(clause[start - 1]))
    )
      found = i;
  }
  return found;
}

/**
 * The question without its small talk: the clauses (split after . ! ? ; : , and …, and first
 * and last lines of small talk) with a marker word and otherwise only companion and function
 * words of a configured language are left out, and so is a lead-in of such words that ends in
 * a colon before the first clause that asks.
 * A question whose other clauses ask nothing stays as asked.
 */
export function withoutSmallTalk(
  text: string,
  profiles: readonly LanguageProfile[],
): { text: string; dropped: string[] } {
  const has = (word: string, kind: 'markers' | 'companions') =>
    profiles.some(p => p.smallTalk?.[kind].has(word));
  // Folded, as the analyzers compare Czech typed without diacritics ("uz jsem hledal").
  const functionWord = (word: string) =>
    profiles.some(p => foldedStopwords(p).has(word));
  const words = (clause: string) => tokenize(clause).map(foldDiacritics);
  const smallTalkWord = (w: string) =>
    has(w, 'markers') || has(w, 'companions') || functionWord(w);
  const signOff = (phrase: string) =>
    profiles.some(p => p.smallTalk?.signOff?.has(phrase));
  // In the sign-off's own language: Czech "do" is no article before English "thanks".
  const thanksAsNoun = (phrase: string, before: string) =>
    profiles.some(
      p =>
        p.smallTalk?.signOff?.has(phrase) &&
        p.smallTalk.beforeNoun?.has(before),
    );
  const chat = (clause: string) => {
    const ws = words(clause);
    const marked = ws.some(
      (w, i) => has(w, 'markers') || has(`${w} ${ws[i + 1]}`, 'markers'),
    );
    if (marked && ws.every(smallTalkWord)) return true;
    // A sign-off after nothing but small talk ("předem díky za radu", "why many thanks").
    for (let k = 1; k <= Math.min(5, ws.length); k++) {
      if (
        signOff(ws.slice(-k).join(' ')) &&
        ws.slice(0, -k).every(smallTalkWord)
      )
        return true;
    }
    return false;
  };
  // Chat messages put a greeting or a sign-off on a line of its own ("Hi all", "thanks in
  // advance"): such first and last lines are clauses. Other line breaks are no boundary: a
  // wrapped sentence goes on on the next line ("… a way for\nsomeone new to get access?").
  const lines = text.split(/\r?\n/);
  const head: string[] = [];
  const tail: string[] = [];
  while (lines.length > 1 && chat(lines[0])) head.push(lines.shift()!);
  while (lines.length > 1 && chat(lines[lines.length - 1]))
    tail.unshift(lines.pop()!);
  const clauses = [
    ...head,
    ...lines
      .join('\n')
      .split(/(?<=[.!?;:,…])\s+/u)
      .flatMap(clause =>
        splitUnpunctuated(clause, chat, smallTalkWord, signOff, thanksAsNoun),
      ),
    ...tail,
  ].filter(clause => clause.trim());
  // A lead-in ending in a colon before the first thing asked introduces it ("My team asked me
  // to find out:", "Asking for a colleague:"): made only of small-talk words with a word of
  // asking, it needs no marker, the colon marks it. "Backstage catalog:" and "Team:" name the
  // topic and stay.
  const reason = (w: string) =>
    profiles.some(p => p.smallTalk?.reasons?.has(w));
  const leadIn = (clause: string) => {
    const ws = words(clause);
    return /:\s*$/.test(clause) && ws.every(smallTalkWord) && ws.some(reason);
  };
  const first = clauses.findIndex(c => !chat(c) && !leadIn(c));
  const left = (clause: string, i: number) =>
    chat(clause) || (i < first && leadIn(clause));
  const kept = clauses.filter((c, i) => !left(c, i));
  // Nothing asked without it ("Hi, anyone?"): the small talk was the question.
  const asks = (clause: string) => !words(clause).every(smallTalkWord);
  if (kept.length === clauses.length || !kept.some(asks)) {
    return { text, dropped: [] };
  }
  return { text: kept.join(' '), dropped: clauses.filter(left) };
}

const folded = new WeakMap<LanguageProfile, ReadonlySet<string>>();
/** A language's function words, folded (Czech is compared as typed without diacritics). */
export function foldedStopwords(profile: LanguageProfile): ReadonlySet<string> {
  let set = folded.get(profile);
  if (!set) {
    set = new Set([...profile.stopwords].map(foldDiacritics));
    folded.set(profile, set);
  }
  return set;
}
