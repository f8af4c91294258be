/*
 * Chat variants: the same question as people type it into a chat box, inside a greeting, a
 * reason for asking or a thank-you. The words of the frame are not the question: an answerable
 * question should stay answered and ranked the same, an unanswerable one refused. The frames
 * were written before anything was measured on them and are the same for every item; each item
 * gets one, chosen by its id (so a run is repeatable), in its question's language.
 */
import { createHash } from 'crypto';
import { foldDiacritics } from '../../plugins/ask-docs-backend/src/language/tokenize';
import type { EvalItem } from './evalItems';

/**
 * Frames of the train and dev splits (and shared-dev). The test split has its own frames
 * (TEST_FRAMES), written at the same time, before anything was built for chat questions, and
 * looked at only in the test split's single report: a filter made from words seen here is
 * measured on words it was not made from.
 */
const FRAMES: Record<string, readonly string[]> = {
  en: [
    'Hi, quick question: {q}',
    "I'm stuck on something at work. {q} Thanks!",
    'My team asked me to find out: {q}',
    "{q} I couldn't find it myself.",
    'Sorry if this is obvious, but {q}',
    'Hello! Can someone help? {q}',
  ],
  cs: [
    'Ahoj, rychlý dotaz: {q}',
    'Zasekl jsem se v práci. {q} Díky!',
    'Kolegové se ptají: {q}',
    '{q} Sám jsem to nenašel.',
    'Promiňte, jestli je to hloupost, ale {q}',
    'Dobrý den, poradí mi někdo? {q}',
  ],
};

const TEST_FRAMES: Record<string, readonly string[]> = {
  en: [
    'Hey folks, does anyone know this one? {q}',
    '{q} Any pointers appreciated.',
    'Newbie here, so bear with me. {q}',
    'Good morning all! {q} Cheers',
    'Asking for a colleague: {q}',
    "I've searched around but no luck. {q}",
  ],
  cs: [
    'Čau, nevíte někdo? {q}',
    '{q} Předem díky za radu.',
    'Jsem tu nový, tak pardon. {q}',
    'Dobré ráno všem! {q}',
    'Ptám se za kolegu: {q}',
    'Hledal jsem, ale nic. {q}',
  ],
};

/**
 * Situation frames: one sentence of context before or after the question, with content words
 * and no small-talk marker ("We are migrating our internal services this quarter."). People say
 * why they ask; those words are not what they ask, but some name a constraint. Written before
 * anything was measured on them; the test split has its own (TEST_SITUATION_FRAMES), written at
 * the same time and measured only there.
 */
const SITUATION_FRAMES: Record<string, readonly string[]> = {
  en: [
    'We are migrating our internal services this quarter. {q}',
    '{q} This came up while reviewing our deployment pipeline.',
    'Our team maintains the reporting database and the website. {q}',
    'I am updating the onboarding guide for new engineers. {q}',
    '{q} We need it for a customer project next week.',
    "After yesterday's upgrade some scripts stopped working. {q}",
  ],
  cs: [
    'Tento kvartál migrujeme naše interní služby. {q}',
    '{q} Řešíme to při revizi našeho nasazovacího procesu.',
    'Náš tým spravuje reportingovou databázi a web. {q}',
    'Aktualizuji příručku pro nové inženýry. {q}',
    '{q} Potřebujeme to pro zákaznický projekt příští týden.',
    'Po včerejší aktualizaci přestaly fungovat některé skripty. {q}',
  ],
};

const TEST_SITUATION_FRAMES: Record<string, readonly string[]> = {
  en: [
    'We are rolling out a new internal platform next month. {q}',
    '{q} It is for the migration plan I am writing.',
    'Our support team keeps getting tickets about this. {q}',
    'I maintain the build scripts for several projects. {q}',
    '{q} The audit is scheduled for Friday.',
    'Since the last release our nightly jobs behave differently. {q}',
  ],
  cs: [
    'Příští měsíc zavádíme novou interní platformu. {q}',
    '{q} Potřebuji to do plánu migrace, který píšu.',
    'Náš tým podpory k tomu stále dostává požadavky. {q}',
    'Spravuji skripty pro sestavení několika projektů. {q}',
    '{q} Audit máme naplánovaný na pátek.',
    'Od posledního vydání se naše noční úlohy chovají jinak. {q}',
  ],
};

/**
 * Sign-off frames: the question typed without its closing punctuation and a word of thanks after
 * it, as chat messages often are. Train, dev and shared-dev only, written after the test split's
 * single report showed its chat frame "Good morning all! {q} Cheers" refusing answerable
 * questions (decision record 0009, nineteenth round): a rule measured here is measured on the
 * test split through that one frame.
 */
const SIGN_OFF_FRAMES: Record<string, readonly string[]> = {
  en: [
    '{q} thanks',
    '{q} Thanks',
    '{q} thx',
    '{q} thank you',
    '{q} thanks in advance',
    '{q} many thanks',
  ],
  cs: [
    '{q} díky',
    '{q} Díky',
    '{q} děkuji',
    '{q} předem díky',
    '{q} díky moc',
    '{q} děkuju za radu',
  ],
};

/** The language a question is typed in: the item's, or the other one for a cross-lingual one. */
function questionLang(item: EvalItem): string {
  if (item.kind !== 'crosslingual') return item.lang;
  return item.lang === 'cs' ? 'en' : 'cs';
}

/** "chat-<split>" for an item of "items-<split>" or "shared-dev" ("chat-shared-dev"). */
export function chatSet(set: string): string {
  return `chat-${set.replace(/^items-/, '')}`;
}

/** "signoff-<split>" for an item of "items-<split>" or "shared-dev". */
export function signOffSet(set: string): string {
  return `signoff-${set.replace(/^items-/, '')}`;
}

/** "context-<split>" for an item of "items-<split>" or "shared-dev". */
export function contextSet(set: string): string {
  return `context-${set.replace(/^items-/, '')}`;
}

/**
 * The question inside its frame (a chat frame, or with `kind: 'situation'` a situation frame);
 * a lowercase start after "but" keeps the sentence.
 */
export function framed(item: EvalItem, kind: FrameKind = 'chat'): string {
  const test = item.set === 'items-test';
  const bySplit = {
    chat: test ? TEST_FRAMES : FRAMES,
    situation: test ? TEST_SITUATION_FRAMES : SITUATION_FRAMES,
    signOff: SIGN_OFF_FRAMES,
  }[kind];
  const frames = bySplit[questionLang(item)] ?? bySplit.en;
  const pick = createHash('sha256').update(item.id).digest()[0] % frames.length;
  const frame = frames[pick];
  // A sign-off is typed after the question's last word, its punctuation left out.
  const q =
    kind === 'signOff'
      ? item.question.trim().replace(/[\s?.!]+$/u, '')
      : item.question.trim();
  const asTyped = /(?:but|ale) \{q\}$/.test(frame)
    ? q.charAt(0).toLowerCase() + q.slice(1)
    : q;
  // Typed without diacritics, the frame is too ("jak prichytit vrstvu" in "Ahoj, rychly dotaz").
  // eslint-disable-next-line no-control-regex
  const plain = /^[\x00-\x7f]*$/.test(q);
  const words = plain ? foldDiacritics(frame) : frame;
  return words.replace('{q}', asTyped);
}

type FrameKind = 'chat' | 'situation' | 'signOff';

/** One variant per hand-written item in the documents' language sets, framed as `kind`. */
function framedVariants(
  items: readonly EvalItem[],
  kind: FrameKind,
): EvalItem[] {
  const name = { chat: 'chat', situation: 'context', signOff: 'signoff' }[kind];
  const setOf = { chat: chatSet, situation: contextSet, signOff: signOffSet }[
    kind
  ];
  return (
    items
      .filter(item => !item.set.startsWith('cross-'))
      // Sign-off frames exist for train, dev and shared-dev only.
      .filter(item => kind !== 'signOff' || item.set !== 'items-test')
      .map(item => ({
        ...item,
        id: `${item.id}~${name}`,
        question: framed(item, kind),
        set: setOf(item.set),
        note: `${name} variant of ${item.id}`,
      }))
  );
}

/** Each item inside a chat frame (greeting, reason for asking, thanks). */
export const chatVariants = (items: readonly EvalItem[]) =>
  framedVariants(items, 'chat');

/** Each train, dev and shared-dev item typed without punctuation, with a sign-off of thanks. */
export const signOffVariants = (items: readonly EvalItem[]) =>
  framedVariants(items, 'signOff');

/** Each item after or before a sentence of situation context. */
export const contextVariants = (items: readonly EvalItem[]) =>
  framedVariants(items, 'situation');
