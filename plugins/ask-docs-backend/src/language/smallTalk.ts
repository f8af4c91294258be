/**
 * Small talk around a question: a greeting, a thank-you, an apology, a reason for asking ("Hi,
 * quick question:", "Thanks!", "Zasekl jsem se v práci."). A clause made only of such words is
 * not what is asked; its words, absent from the docs, made the evidence decision refuse answerable
 * questions (decision record 0009, fifteenth round). A word of these lists inside a clause that
 * also has other words ("Quick Mask", "the Help menu", "search plugin") stays.
 *
 * Lowercase, folded (no diacritics), as the words are compared. Grouped by what they do in a
 * chat message, not taken from any one message.
 */
import { foldDiacritics, tokenize } from './tokenize';
import type { LanguageProfile } from './types';

const ENGLISH = `
  hi hello hey hiya howdy greetings morning afternoon evening good dear all everyone everybody
  folks guys people team
  thanks thank thx cheers appreciate appreciated grateful advance
  sorry apologies apologise apologize excuse obvious dumb stupid silly basic newbie noob
  beginner new
  question questions quick help anyone anybody someone somebody know knows wonder wondering
  idea ideas advice tip tips hint hints pointer pointers suggestion suggestions clue
  stuck confused struggling lost trying tried figure figured find found looked searched
  googled luck
  ask asking asked need needed want wanted something anything thing work job boss colleague
  colleagues coworker coworkers manager
  just really actually basically anyway ok okay well yeah yes bit little here around
  couldn't can't didn't doesn't don't won't wasn't isn't i'm i've i'd
`;

const CZECH = `
  ahoj cau cus zdravim zdravime dobry dobre dobra den rano vecer odpoledne vsem vsichni lidi
  kolego kolegove kolega kolegu kolegy kolegum tym tyme
  diky dik dekuji dekuju dekujeme predem moc
  prominte promin pardon omlouvam omluva hloupost hloupa hloupy blbost blba blby zacatecnik
  zacatecnice novy nova nove
  dotaz dotazek otazka otazku rychly rychla rychle pomoc pomoct pomozte pomuze poradi poradit
  poradte rada radu rady nekdo nikdo nevite vite nevi vim nevim
  zasekl zasekla zasekli zaseknuty hledal hledala hledam hledali nenasel nenasla nasel nasla
  sam sama ptam ptaji pta zeptat sef prace praci potrebuji potrebuju chci chtel chtela neco
  nic jen jenom vlastne tak no fakt
`;

function toSet(list: string): ReadonlySet<string> {
  return new Set(list.split(/\s+/).filter(Boolean).map(foldDiacritics));
}

export const ENGLISH_SMALL_TALK = toSet(ENGLISH);
export const CZECH_SMALL_TALK = toSet(CZECH);

/**
 * A clause whose end is a sentence of small talk typed without the full stop before it ("… bulk
 * load rows Sorry if this is basic.", "… column Thanks!"): split where a capitalised word (not
 * "I") follows a lower-case one and the rest is small talk. One word counts only with "!": "open
 * the Help" names a menu.
 */
function splitUnpunctuated(
  clause: string,
  chat: (text: string) => boolean,
): string[] {
  // English "I" is capitalised anywhere: "… although I didn't ask for it" is one sentence.
  for (const m of clause.matchAll(/(?<=\p{Ll})\s+(?=\p{Lu})(?!I\b)/gu)) {
    const tail = clause.slice(m.index! + m[0].length);
    if (chat(tail) && (tokenize(tail).length > 1 || /!\s*$/.test(tail))) {
      return [clause.slice(0, m.index), tail];
    }
  }
  return [clause];
}

/**
 * The question without its small talk: the clauses (split after . ! ? ; : , and …) whose words
 * are all small talk or function words of a configured language, with at least one small-talk
 * word, are left out. A question whose other clauses ask nothing stays as asked.
 */
export function withoutSmallTalk(
  text: string,
  profiles: readonly LanguageProfile[],
): { text: string; dropped: string[] } {
  const smallTalk = (word: string) =>
    profiles.some(p => p.smallTalk?.has(foldDiacritics(word)));
  const functionWord = (word: string) =>
    profiles.some(p => p.stopwords.has(word));
  const chat = (clause: string) => {
    const words = tokenize(clause);
    return (
      words.some(smallTalk) && words.every(w => smallTalk(w) || functionWord(w))
    );
  };
  const clauses = text
    .split(/(?<=[.!?;:,…])\s+/u)
    .flatMap(clause => splitUnpunctuated(clause, chat));
  const kept = clauses.filter(c => !chat(c));
  // Nothing asked without it ("Where is the help, please?"): the small talk was the question.
  const asks = (clause: string) =>
    tokenize(clause).some(w => !smallTalk(w) && !functionWord(w));
  if (kept.length === clauses.length || !kept.some(asks)) {
    return { text, dropped: [] };
  }
  return { text: kept.join(' '), dropped: clauses.filter(chat) };
}
