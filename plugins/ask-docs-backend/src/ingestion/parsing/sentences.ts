/** A half-open range [start, end) of a string. */
export interface Span {
  start: number;
  end: number;
}

/**
 * Abbreviations after which a period does not end a sentence even before a capital letter
 * (English and Czech). Compared lower-cased, with the period. Tokens made only of letter-period
 * pairs ("e.g.", "i.e.", "z.s.") and single letters ("J.") are recognised without a list.
 */
const ABBREVIATIONS = new Set([
  'cf.',
  'vs.',
  'viz.',
  'approx.',
  'incl.',
  'excl.',
  'esp.',
  'fig.',
  'figs.',
  'eq.',
  'sec.',
  'ch.',
  'vol.',
  'ref.',
  'al.',
  'ca.',
  'mr.',
  'mrs.',
  'ms.',
  'dr.',
  'prof.',
  'sr.',
  'jr.',
  'st.',
  'inc.',
  'ltd.',
  'corp.',
  'dept.',
  'resp.',
  'např.',
  'tzn.',
  'tj.',
  'tzv.',
  'mj.',
  'popř.',
  'příp.',
  'vč.',
  'č.',
  'čís.',
  'str.',
  'odst.',
  'písm.',
  'pozn.',
  'srov.',
  'cca.',
  'ing.',
  'mgr.',
  'bc.',
  'doc.',
  'phdr.',
  'mudr.',
  'rndr.',
  'judr.',
  'tel.',
  'ul.',
  'zák.',
]);

const TERMINATORS = new Set(['.', '!', '?', '…']);
const CLOSERS = new Set([')', ']', '}', '"', "'", '”', '’', '»', '›', '“']);
const OPENERS = new Set([
  '(',
  '[',
  '{',
  '"',
  "'",
  '“',
  '‘',
  '„',
  '«',
  '‹',
  '‚',
]);
// "1." / "2.19.1." / "IV." / "a)" at the start of a line: numbering, not a sentence.
const NUMBERING = /^((\d+|[ivxlcdm]+|[a-z])[.)])+$/i;
const LETTER_DOTS = /^(\p{L}\.)+$/u;
const UPPER = /\p{Lu}/u;
const ANY = /\S/u;
const LOWER_OR_DIGIT = /[\p{Ll}\p{N}]/u;

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\u00a0';
}

/**
 * Splits text into sentences. Every line is its own unit (code lines, list items and table rows
 * are never joined), and within a line a sentence ends at ". ", "! ", "? " followed by a capital
 * letter (in `chat` text, by anything: SentenceOptions), unless the word before the period is an
 * abbreviation, an initial or line numbering.
 * Periods inside numbers ("1.0", "3.14") never split because no space follows them; a number
 * followed by a period and a digit or a lower-case word ("5. 12. 2025", "5. června") neither.
 */
export function splitSentences(
  text: string,
  options: SentenceOptions = {},
): Span[] {
  const spans: Span[] = [];
  let lineStart = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    splitLine(text, lineStart, lineEnd, spans, options);
    lineStart = lineEnd + 1;
  }
  return spans;
}

export interface SentenceOptions {
  /**
   * Text typed into a chat box, as questions are: a sentence may start in lower case or with a
   * symbol ("We moved the cluster. how do I …", "? 🙂 We …"); documents' sentences start with a
   * capital. Then a list's "etc."/"atd." and a number's full stop before a lower-case word or a
   * digit (a date: "5. června") end no sentence.
   */
  chat?: boolean;
}

/** Abbreviations a chat message ends no sentence with (documents end sentences with "etc."). */
const CHAT_ABBREVIATIONS = new Set([
  'etc.',
  'atd.',
  'apod.',
  'no.',
  'nr.',
  'ver.',
  'př.',
]);

function splitLine(
  text: string,
  from: number,
  to: number,
  out: Span[],
  options: SentenceOptions,
): void {
  let start = from;
  while (start < to && /\s/.test(text[start])) start++;
  let end = to;
  while (end > start && /\s/.test(text[end - 1])) end--;
  if (start >= end) return;

  const starts = options.chat ? ANY : UPPER;
  let sentenceStart = start;
  for (let i = start; i < end; i++) {
    if (!TERMINATORS.has(text[i])) continue;
    let j = i + 1;
    while (j < end && TERMINATORS.has(text[j])) j++;
    while (j < end && CLOSERS.has(text[j])) j++;
    if (j >= end || !isSpace(text[j])) {
      i = j - 1;
      continue;
    }
    let next = j;
    while (next < end && isSpace(text[next])) next++;
    let letter = next;
    while (letter < end && OPENERS.has(text[letter])) letter++;
    if (letter >= end || !starts.test(text[letter])) {
      i = j - 1;
      continue;
    }
    if (
      text[i] === '.' &&
      !TERMINATORS.has(text[i + 1]) &&
      !endsSentence(text, sentenceStart, i, options.chat ? letter : undefined)
    ) {
      i = j - 1;
      continue;
    }
    out.push({ start: sentenceStart, end: j });
    sentenceStart = next;
    i = next - 1;
  }
  out.push({ start: sentenceStart, end });
}

/**
 * Whether the single period at `dot` ends the sentence that began at `sentenceStart`; `next`,
 * in a chat message, is where the next sentence would start.
 */
function endsSentence(
  text: string,
  sentenceStart: number,
  dot: number,
  next?: number,
): boolean {
  let tokenStart = dot;
  while (tokenStart > sentenceStart && !/\s/.test(text[tokenStart - 1]))
    tokenStart--;
  let token = text.slice(tokenStart, dot + 1);
  while (token.length > 1 && OPENERS.has(token[0])) token = token.slice(1);
  if (tokenStart === sentenceStart && NUMBERING.test(token)) return false;
  if (LETTER_DOTS.test(token)) return false;
  if (next !== undefined) {
    if (CHAT_ABBREVIATIONS.has(token.toLowerCase())) return false;
    if (/^\d+\.$/.test(token) && LOWER_OR_DIGIT.test(text[next])) return false;
  }
  return !ABBREVIATIONS.has(token.toLowerCase());
}
