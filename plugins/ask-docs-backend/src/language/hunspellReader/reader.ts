/**
 * Spelling and stemming over a parsed affix file and word table, with hunspell's handling of
 * the input around them: case variants, trailing dots (abbreviations), numbers and break
 * points ("-"). Written to give hunspell's answers for the Debian cs_CZ dictionary; see
 * README.md for what was compared and how.
 */
import { AffixFile } from './affixFile';
import { AffixMatcher } from './affixMatcher';
import {
  CapType,
  MAX_WORD_UNITS,
  capType,
  capitalise,
  hasAstral,
  toInitialUpper,
  toLower,
} from './casing';
import { ONLY_UPCASE, WordTable, firstFlags, homonymList } from './wordTable';

/** Hunspell rejects inputs of this many UTF-8 bytes or more. */
const MAX_INPUT_BYTES = 256;
/** More break points than this: not split (hunspell's recursion limit). */
const MAX_BREAKS = 10;
const NUMBER = /^[0-9]+(?:[.,-][0-9]+)*$/;

interface CleanWord {
  word: string;
  /** Trailing dots removed (an abbreviation may be listed with its dot). */
  dots: number;
  capType: CapType;
  /** Empty after cleaning, or too long for hunspell to classify. */
  unusable: boolean;
}

/** Per-call state of a spell check: hunspell stops trying case variants after a forbidden word. */
interface SpellState {
  forbidden: boolean;
}

export class HunspellReader {
  private readonly matcher: AffixMatcher;

  constructor(
    private readonly affix: AffixFile,
    private readonly words: WordTable,
  ) {
    this.matcher = new AffixMatcher(affix, words);
  }

  /** Dictionary roots of the word: of its lower-case, capitalised and given forms. */
  stemSync(input: string): string[] {
    const clean = cleanInput(input);
    if (!clean) return [];
    let { word, dots, capType: type } = clean;
    if (clean.unusable) {
      // Hunspell then analyses the dots alone.
      if (dots === 0) return [];
      word = '.'.repeat(dots);
      dots = 0;
      type = CapType.None;
    }
    const forms: string[] = [];
    const withDot = (w: string) => (dots > 0 ? [w, `${w}.`] : [w]);
    if (type === CapType.All) forms.push(word);
    if (type === CapType.Initial || type === CapType.All) {
      const lower = toLower(word);
      const initial = toInitialUpper(lower);
      forms.push(lower, initial);
      if (dots > 0) forms.push(`${lower}.`, `${initial}.`);
    } else {
      forms.push(...withDot(word));
    }
    const stems = new Set<string>();
    for (const form of forms) this.collectStems(form, stems);
    return [...stems];
  }

  spellSync(input: string): boolean {
    if (input === '<?xml?>') return true; // hunspell's XML API marker
    const clean = cleanInput(input);
    if (!clean) return false;
    if (clean.unusable) return true; // hunspell accepts what it cannot check
    if (NUMBER.test(clean.word)) return true;
    const state: SpellState = { forbidden: false };
    if (this.checkCaseVariants(clean, state)) return true;
    // Break points are tried on the form hunspell last looked up.
    const last =
      clean.capType === CapType.All || clean.capType === CapType.Initial
        ? capitalise(clean.word)
        : clean.word;
    return this.checkBreaks(last);
  }

  private collectStems(word: string, stems: Set<string>): void {
    const homonyms = this.words.get(word);
    if (homonyms !== undefined) {
      for (const flags of homonymList(homonyms)) {
        if (!this.isForbidden(flags)) stems.add(word);
      }
    }
    this.matcher.eachRoot(word, root => {
      stems.add(root);
      return false;
    });
  }

  private checkCaseVariants(clean: CleanWord, state: SpellState): boolean {
    const { word, dots, capType: type } = clean;
    if (type !== CapType.All && type !== CapType.Initial) {
      return (
        this.checkWord(word, false, state) ||
        (dots > 0 && this.checkWord(`${word}.`, false, state))
      );
    }
    if (type === CapType.All) {
      if (this.checkWord(word, false, state)) return true;
      if (dots > 0 && this.checkWord(`${word}.`, false, state)) return true;
      if (word.includes("'") && this.checkApostrophe(word, state)) return true;
    }
    // Initial capital (or all capitals, after the above): capitalised, then lower case.
    const initialOnly = type === CapType.Initial;
    const lower = toLower(word);
    const initial = toInitialUpper(lower);
    if (this.checkWord(initial, initialOnly, state)) return true;
    if (state.forbidden) return false;
    if (this.checkWord(lower, false, state)) return true;
    return (
      dots > 0 &&
      (this.checkWord(`${lower}.`, false, state) ||
        this.checkWord(`${initial}.`, initialOnly, state))
    );
  }

  /** "SANT'ELIA" → "sant'Elia", then "Sant'Elia". */
  private checkApostrophe(word: string, state: SpellState): boolean {
    const lower = toLower(word);
    const at = lower.indexOf("'");
    const inner = lower.slice(0, at + 1) + toInitialUpper(lower.slice(at + 1));
    return (
      this.checkWord(inner, false, state) ||
      this.checkWord(toInitialUpper(inner), false, state)
    );
  }

  /**
   * One form: listed (unless its first entry is forbidden), else derived by affixes from the
   * first root found. With `initialOnly` (the input had an initial capital) hidden
   * capitalised entries do not count.
   */
  private checkWord(
    word: string,
    initialOnly: boolean,
    state: SpellState,
  ): boolean {
    if (word === '') return false;
    const homonyms = this.words.get(word);
    if (homonyms !== undefined) {
      if (this.isForbidden(firstFlags(homonyms))) {
        state.forbidden = true;
        return false;
      }
      for (const flags of homonymList(homonyms)) {
        if (!(initialOnly && flags.includes(ONLY_UPCASE))) return true;
      }
    }
    let rootFlags: string | undefined;
    this.matcher.eachRoot(word, (_root, flags) => {
      rootFlags = flags;
      return true;
    });
    if (rootFlags === undefined) return false;
    if (initialOnly && rootFlags.includes(ONLY_UPCASE)) return false;
    if (this.isForbidden(rootFlags)) {
      state.forbidden = true;
      return false;
    }
    return true;
  }

  /** Hyphenated words: both sides must be words ("pes-pes"); a leading/trailing "-" is dropped. */
  private checkBreaks(word: string): boolean {
    const patterns = this.affix.breakPatterns;
    let found = 0;
    for (const pattern of patterns) found += countOccurrences(word, pattern);
    if (found >= MAX_BREAKS) return false;
    for (const pattern of patterns) {
      if (pattern.length === 1 || pattern.length > word.length) continue;
      const body = pattern.slice(1);
      if (pattern.startsWith('^') && word.startsWith(body)) {
        if (this.spellSync(word.slice(body.length))) return true;
      }
      const head = pattern.slice(0, -1);
      if (pattern.endsWith('$') && word.endsWith(head)) {
        if (this.spellSync(word.slice(0, word.length - head.length)))
          return true;
      }
    }
    for (const pattern of patterns) {
      const at = word.indexOf(pattern);
      if (at <= 0 || at + pattern.length >= word.length) continue;
      if (!this.spellSync(word.slice(at + pattern.length))) continue;
      if (this.spellSync(word.slice(0, at))) return true;
    }
    return false;
  }

  private isForbidden(flags: string): boolean {
    const flag = this.affix.forbiddenFlag;
    return flag !== '' && flags.includes(flag);
  }
}

/**
 * Hunspell's input cleaning: text after a NUL is ignored, leading spaces and trailing dots are
 * removed. Undefined when the input is too long to be checked at all.
 */
function cleanInput(input: string): CleanWord | undefined {
  let word = input;
  const nul = word.indexOf('\0');
  if (nul >= 0) word = word.slice(0, nul);
  // Lone surrogates become U+FFFD, as in the UTF-8 that hunspell is given.
  word = (word as { toWellFormed?(): string }).toWellFormed?.() ?? word;
  if (Buffer.byteLength(word, 'utf8') >= MAX_INPUT_BYTES) return undefined;
  word = word.replace(/^ +/, '');
  const trimmed = word.replace(/\.+$/, '');
  const dots = word.length - trimmed.length;
  const tooLong =
    trimmed.length >= MAX_WORD_UNITS && !hasAstral(trimmed, MAX_WORD_UNITS);
  return {
    word: trimmed,
    dots,
    capType: tooLong ? CapType.None : capType(trimmed),
    unusable: trimmed === '' || tooLong,
  };
}

function countOccurrences(text: string, pattern: string): number {
  let count = 0;
  for (
    let at = text.indexOf(pattern);
    at >= 0;
    at = text.indexOf(pattern, at + 1)
  )
    count++;
  return count;
}
