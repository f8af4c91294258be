/*
 * Question-form variants (decision record 0009, eighth round): the same question asked in the
 * other common form, so the evaluation can tell whether a decision follows what is asked or how
 * it is worded. In the hand-written sets most unanswerable questions begin "How do I …?" /
 * "Jak …?" and most answerable how-to items are bare fragments ("drop a database even though
 * …"); a model fitted on them can learn the wording instead of the evidence.
 *
 * Two mechanical rewrites, each meaning-preserving for a how-to request:
 * - "How do/can/should I X?", "How to X?", "Jak <infinitive> X?" → the fragment "X";
 * - a how-to fragment starting with a verb → "How do I X?" / "Jak X?".
 * Everything else has no variant. Variants keep the item's gold pages and answerability; their
 * set is `form-<split>` (form-train from items-train, form-shared-dev from shared-dev, ...).
 */
import type { EvalItem } from './evalItems';

/** Words an English fragment can start with that make it no imperative. */
const NOT_A_VERB = new Set(
  (
    'a an the my our your his her its their this that these those i we you it he she they ' +
    'what which where when why who whose how is are was were do does did can could will ' +
    'would should shall may might must has have had if in on at to for from with after before ' +
    'during while without by of as all any each every no not one two there here json jsonb ' +
    // Nouns that how-to fragments start with ("syntax to create a hash index").
    'number way ways fastest best latest syntax difference column'
  ).split(' '),
);

/** A Czech infinitive: "nasadit", "zorganizovat", "otočit", "říct", "péci". */
const CS_INFINITIVE = /^\p{Ll}\p{L}+(?:[aeiouyáéěíóúůý]t|ct|ci)$/u;
/**
 * After "Jak" also "převést", "nanést", "vézt": a fragment's first word ending in -st may be a
 * noun ("část", "most"), so these count only where "Jak" shows the word is a verb.
 */
const CS_INFINITIVE_AFTER_JAK =
  /^\p{Ll}\p{L}+(?:[aeiouyáéěíóúůý]t|ct|ci|st|zt)$/u;

const EN_HOW =
  /^\s*how\s+(?:(?:do|can|should|would)\s+(?:i|we|you)|to)\s+(.+?)\s*\?*\s*$/i;
// "Jak nasadit …?", and reflexive "Jak se přihlásit …?" → "přihlásit se …".
const CS_HOW = /^\s*jak\s+(?:(se|si)\s+)?(\p{L}+)(.*?)\s*\?*\s*$/iu;

/**
 * The question in its other form, or undefined when it has none. `toHow` allows the fragment →
 * how-question direction, which needs the fragment to be a request (a how-to item's).
 */
export function otherForm(
  question: string,
  lang: string,
  toHow: boolean,
): string | undefined {
  const q = question.trim();
  if (lang === 'en') {
    const how = EN_HOW.exec(q);
    if (how) return how[1];
    const first = q.split(/\s+/)[0];
    if (
      toHow &&
      !q.endsWith('?') &&
      /^[a-z][a-z-]+$/.test(first) &&
      !NOT_A_VERB.has(first)
    )
      return `How do I ${q}?`;
    return undefined;
  }
  if (lang === 'cs') {
    const how = CS_HOW.exec(q);
    if (how && CS_INFINITIVE_AFTER_JAK.test(how[2].toLowerCase())) {
      const reflexive = how[1] ? ` ${how[1].toLowerCase()}` : '';
      return `${how[2].toLowerCase()}${reflexive}${how[3]}`;
    }
    const first = q.split(/\s+/)[0];
    if (toHow && !q.endsWith('?') && CS_INFINITIVE.test(first))
      return `Jak ${q}?`;
    return undefined;
  }
  return undefined;
}

/** The set a variant of an item in `set` is reported in. */
export function formSet(set: string): string {
  return `form-${set.replace(/^items-/, '')}`;
}

/**
 * Variants of `items`: every how-question as a fragment; a fragment as a how-question only for
 * unanswerable items and answerable ones of kind howto (other kinds' fragments are often noun
 * phrases: "pg_locks view outstanding locks").
 */
export function formVariants(items: readonly EvalItem[]): EvalItem[] {
  const out: EvalItem[] = [];
  for (const item of items) {
    // Variants are of the sets in one language; the cross-lingual items are reported apart.
    if (item.set.startsWith('cross-')) continue;
    const toHow = !item.answerable || item.kind === 'howto';
    const question = otherForm(item.question, item.lang, toHow);
    if (question === undefined) continue;
    out.push({
      ...item,
      id: `${item.id}~form`,
      question,
      set: formSet(item.set),
      note: `other form of ${item.id}`,
    });
  }
  return out;
}
