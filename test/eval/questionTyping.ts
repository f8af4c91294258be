/*
 * Typing variants: the same question as it is often typed. Two mechanical rewrites, each reported
 * in its own set, so the evaluation can tell how much a slip of the keyboard costs:
 * - `typo-<split>`: one slip in one word of six or more letters (two letters swapped, one left
 *   out, one doubled, or a neighbouring key hit instead), the word and the slip chosen by a hash
 *   of the item's id, so a run is repeatable;
 * - `plain-<split>`: a Czech question typed without diacritics (only those that have any).
 * Identifiers (words with digits or joined by _ . /) and capitalised words (names, UI labels)
 * are not touched: a slip in them is a different test (decision record 0009, ninth round). A
 * variant keeps its item's gold, answerability and language. The hand-written sets already hold
 * such questions (kinds `typo`, `nodiacritics`); these put every item through the same rewrite.
 */
import { createHash } from 'crypto';
import { foldDiacritics } from '../../plugins/ask-docs-backend/src/language/tokenize';
import type { EvalItem } from './evalItems';

/** Neighbouring keys on a QWERTY (and QWERTZ: y/z) keyboard, for a substitution slip. */
const NEIGHBOURS: Record<string, string> = {
  a: 'sqz',
  b: 'vn',
  c: 'xv',
  d: 'sf',
  e: 'wr',
  f: 'dg',
  g: 'fh',
  h: 'gj',
  i: 'uo',
  j: 'hk',
  k: 'jl',
  l: 'k',
  m: 'n',
  n: 'bm',
  o: 'ip',
  p: 'o',
  q: 'w',
  r: 'et',
  s: 'ad',
  t: 'rz',
  u: 'zi',
  v: 'cb',
  w: 'qe',
  x: 'c',
  y: 'tu',
  z: 'tu',
};

/** A lowercase word of letters only, six or more: where the slip goes. */
const SLIP_WORD = /^\p{Ll}{6,}$/u;

function hashBytes(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** One slip in `word`, chosen by `seed`; undefined when the chosen slip leaves it unchanged. */
export function slip(word: string, seed: Buffer): string | undefined {
  const chars = [...word];
  // Never the first letter: people rarely miss it, and a typo corrector may rely on it.
  const at = 1 + (seed[2] % (chars.length - 2));
  const out = [...chars];
  switch (seed[1] % 4) {
    case 0: // swapped with the next letter
      [out[at], out[at + 1]] = [out[at + 1], out[at]];
      break;
    case 1: // left out
      out.splice(at, 1);
      break;
    case 2: // doubled
      out.splice(at, 0, out[at]);
      break;
    default: {
      // a neighbouring key
      const near = NEIGHBOURS[out[at]];
      if (!near) return undefined;
      out[at] = near[seed[3] % near.length];
    }
  }
  const typed = out.join('');
  return typed === word ? undefined : typed;
}

/** The question with one slip, or undefined when it has no word to slip in. */
export function withTypo(question: string, id: string): string | undefined {
  // Words between spaces and sentence punctuation; a token with other characters is left alone.
  const parts = question.split(/(\s+|[,;:?!.„“"'()]+(?=\s|$))/u);
  const candidates = parts
    .map((part, i) => ({ part, i }))
    .filter(({ part }) => SLIP_WORD.test(part));
  if (!candidates.length) return undefined;
  const seed = hashBytes(`${id}~typo`);
  const { part, i } = candidates[seed[0] % candidates.length];
  const typed = slip(part, seed);
  if (typed === undefined) return undefined;
  parts[i] = typed;
  return parts.join('');
}

/** A Czech question without its diacritics, or undefined when it has none. */
export function withoutDiacritics(question: string): string | undefined {
  // Folded as the analyzers fold words typed without diacritics.
  const plain = foldDiacritics(question);
  return plain === question.normalize('NFC') ? undefined : plain;
}

/** "typo-<split>" / "plain-<split>" for an item of "items-<split>" or "shared-dev". */
export function typingSet(kind: 'typo' | 'plain', set: string): string {
  return `${kind}-${set.replace(/^items-/, '')}`;
}

/** The typing variants of the hand-written items in the documents' language sets. */
export function typingVariants(items: readonly EvalItem[]): EvalItem[] {
  const out: EvalItem[] = [];
  for (const item of items) {
    if (item.set.startsWith('cross-')) continue;
    const typo = withTypo(item.question, item.id);
    if (typo !== undefined)
      out.push({
        ...item,
        id: `${item.id}~typo`,
        question: typo,
        set: typingSet('typo', item.set),
        note: `typo variant of ${item.id}`,
      });
    // The item's language is the documents'; a crosslingual item asks in the other one.
    const asksIn =
      item.kind === 'crosslingual'
        ? item.lang === 'cs'
          ? 'en'
          : 'cs'
        : item.lang;
    const plain =
      asksIn === 'cs' ? withoutDiacritics(item.question) : undefined;
    if (plain !== undefined)
      out.push({
        ...item,
        id: `${item.id}~plain`,
        question: plain,
        set: typingSet('plain', item.set),
        note: `${item.id} typed without diacritics`,
      });
  }
  return out;
}
