/**
 * Parser for the hunspell affix file (.aff), for the subset of the format that spelling and
 * stemming need. Directives that would change those answers and are not implemented here
 * (compounding, NEEDAFFIX, IGNORE, ICONV, ...) make parsing fail instead of being ignored.
 */
import { Condition, ConditionSyntaxError, parseCondition } from './condition';

export interface AffixRule {
  kind: 'PFX' | 'SFX';
  /** One flag (see flagBytes). */
  flag: string;
  crossProduct: boolean;
  strip: string;
  append: string;
  /** Continuation flags (`append/flags`): affixes that may combine with this one. */
  continuation: string;
  condition: Condition;
}

export interface AffixFile {
  prefixes: AffixRule[];
  suffixes: AffixRule[];
  /** FORBIDDENWORD flag, '' when not set. */
  forbiddenFlag: string;
  /** BREAK patterns; hunspell's default when the file has none. */
  breakPatterns: string[];
  /** Every flag that some affix names as a continuation (two-level suffixes). */
  continuationFlags: ReadonlySet<string>;
}

export class UnsupportedAffixFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedAffixFileError';
  }
}

/**
 * Flags are single bytes (the format's default flag type): a non-ASCII flag such as `í` is
 * the two bytes of its UTF-8 encoding, and an affix class is named by its first byte, which
 * is what hunspell does (so `SFX í` and `SFX é` share the class 0xC3 in cs_CZ.aff).
 */
export function flagBytes(flags: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(flags)) return flags;
  return Buffer.from(flags, 'utf8').toString('latin1');
}

const DEFAULT_BREAKS = ['-', '^-', '-$'];

// Directives that only steer suggestions or tokenisation (not spell/stem) or name the file.
const IGNORED = new Set([
  'TRY',
  'KEY',
  'MAP',
  'REP',
  'PHONE',
  'NOSUGGEST',
  'NONGRAMSUGGEST',
  'MAXNGRAMSUGS',
  'MAXCPDSUGS',
  'MAXDIFF',
  'ONLYMAXDIFF',
  'NOSPLITSUGS',
  'SUGSWITHDOTS',
  'WORDCHARS',
  'WARN',
  'NAME',
  'VERSION',
  'HOME',
  'AUTHOR',
  'LICENSE',
  'COPYRIGHT',
  'DESCRIPTION',
]);

// Languages for which hunspell switches on language-specific rules.
const SPECIAL_LANGUAGES = /^(hu|tr|az)(_|$)/;

// Morphological fields in an affix entry would appear in hunspell's stem output.
const MORPHOLOGY_FIELD = /(st|ds|is|pa|sp):| \| /;

export function parseAffixFile(text: string): AffixFile {
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  const prefixes: AffixRule[] = [];
  const suffixes: AffixRule[] = [];
  let forbiddenFlag = '';
  let breakPatterns: string[] | undefined;
  const fail = (line: number, message: string): never => {
    throw new UnsupportedAffixFileError(
      `affix file line ${line + 1}: ${message}`,
    );
  };

  for (let i = 0; i < lines.length; i++) {
    const fields = splitFields(lines[i]);
    if (fields.length === 0 || fields[0].startsWith('#')) continue;
    const [keyword, value] = fields;
    if (keyword === 'PFX' || keyword === 'SFX') {
      const rules = keyword === 'PFX' ? prefixes : suffixes;
      i = parseAffixClass(lines, i, keyword, rules, fail);
    } else if (keyword === 'SET') {
      if (value?.toUpperCase() !== 'UTF-8')
        fail(i, `encoding ${value ?? '(none)'} is not supported, only UTF-8`);
    } else if (keyword === 'FORBIDDENWORD') {
      if (!value) fail(i, 'FORBIDDENWORD without a flag');
      forbiddenFlag = flagBytes(value)[0];
    } else if (keyword === 'BREAK') {
      const count = Number(value);
      if (!Number.isInteger(count) || count < 0) fail(i, 'bad BREAK count');
      breakPatterns = [];
      for (let k = 0; k < count; k++) {
        const entry = splitFields(lines[++i] ?? '');
        if (entry[0] !== 'BREAK' || !entry[1]) fail(i, 'bad BREAK entry');
        breakPatterns.push(entry[1]);
      }
    } else if (keyword === 'LANG') {
      if (value && SPECIAL_LANGUAGES.test(value))
        fail(
          i,
          `LANG ${value} has language-specific rules that are not implemented`,
        );
    } else if (!IGNORED.has(keyword)) {
      fail(i, `${keyword} is not implemented by this reader`);
    }
  }

  const continuationFlags = new Set<string>();
  for (const rule of [...prefixes, ...suffixes]) {
    for (const flag of rule.continuation) continuationFlags.add(flag);
  }
  return {
    prefixes,
    suffixes,
    forbiddenFlag,
    breakPatterns: breakPatterns ?? DEFAULT_BREAKS,
    continuationFlags,
  };
}

function splitFields(line: string): string[] {
  return line
    .replace(/\r$/, '')
    .split(/[ \t]+/)
    .filter(f => f !== '');
}

/** Parses a header and its entries; returns the index of the last line consumed. */
function parseAffixClass(
  lines: string[],
  start: number,
  kind: 'PFX' | 'SFX',
  rules: AffixRule[],
  fail: (line: number, message: string) => never,
): number {
  const [, name, cross, countField] = splitFields(lines[start]);
  const count = Number(countField);
  if (!name || !cross || !Number.isInteger(count) || count <= 0)
    fail(start, `bad ${kind} header`);
  const flag = flagBytes(name)[0];
  let i = start;
  for (let k = 0; k < count; k++) {
    i++;
    const fields = splitFields(lines[i] ?? '');
    if (fields[0] !== kind || flagBytes(fields[1] ?? '')[0] !== flag)
      fail(i, `expected ${kind} ${name} entry ${k + 1} of ${count}`);
    if (fields.length < 5)
      fail(i, `${kind} entry needs strip, affix and condition`);
    const [, , strip, appendField, conditionText, ...rest] = fields;
    const morphology = rest.join(' ');
    if (
      morphology &&
      (!morphology.startsWith('#') || MORPHOLOGY_FIELD.test(morphology))
    )
      fail(i, 'morphological fields on affixes are not implemented');
    const slash = appendField.indexOf('/');
    const append = slash < 0 ? appendField : appendField.slice(0, slash);
    if (append.includes('.'))
      fail(i, 'a dot in an affix (infix wildcard) is not implemented');
    let condition: Condition;
    try {
      condition = parseCondition(conditionText);
    } catch (error) {
      if (!(error instanceof ConditionSyntaxError)) throw error;
      return fail(i, error.message);
    }
    rules.push({
      kind,
      flag,
      crossProduct: cross === 'Y',
      strip: strip === '0' ? '' : strip,
      append: append === '0' ? '' : append,
      continuation: slash < 0 ? '' : flagBytes(appendField.slice(slash + 1)),
      condition,
    });
  }
  return i;
}
