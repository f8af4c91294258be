/**
 * Finds the dictionary roots a word can be derived from, in hunspell's order of attempts:
 * prefix (and prefix + suffix where both allow the cross product), suffix, two suffixes
 * (the outer one named as a continuation class of the inner one), prefix + two suffixes.
 *
 * Rules are indexed by their appendix, so a word only meets the rules whose appendix it
 * starts or ends with: one map lookup per appendix length instead of a scan of every rule.
 */
import { AffixFile, AffixRule } from './affixFile';
import { matchesEnd, matchesStart } from './condition';
import {
  HASH_SEED_A,
  HASH_SEED_B,
  hashTextA,
  hashTextB,
  WordTable,
} from './wordTable';

/** Called for every root (a homonym's flags); returning true stops the search. */
export type RootVisitor = (root: string, flags: string) => boolean;

interface RuleIndex {
  byAppend: Map<string, AffixRule[]>;
  longestAppend: number;
}

function indexRules(rules: readonly AffixRule[]): RuleIndex {
  const byAppend = new Map<string, AffixRule[]>();
  let longestAppend = 0;
  for (const rule of rules) {
    const list = byAppend.get(rule.append);
    if (list) list.push(rule);
    else byAppend.set(rule.append, [rule]);
    longestAppend = Math.max(longestAppend, rule.append.length);
  }
  return { byAppend, longestAppend };
}

/** How a suffix is being tried: alone, after a prefix, or inside an outer suffix. */
interface SuffixContext {
  /** The prefix already removed (cross product). */
  prefix?: AffixRule;
  /** The outer suffix's flag, which this suffix must list as a continuation. */
  continuationOf?: string;
}

export class AffixMatcher {
  private readonly prefixes: RuleIndex;
  private readonly suffixes: RuleIndex;
  /** Suffixes with continuation classes: the only ones an outer suffix can follow. */
  private readonly continuedSuffixes: RuleIndex;
  /** Suffixes whose flag some rule names as a continuation: the outer of two suffixes. */
  private readonly outerSuffixes: RuleIndex;
  private readonly twoLevel: boolean;

  constructor(affix: AffixFile, private readonly words: WordTable) {
    this.prefixes = indexRules(affix.prefixes);
    this.suffixes = indexRules(affix.suffixes);
    this.continuedSuffixes = indexRules(
      affix.suffixes.filter(r => r.continuation !== ''),
    );
    this.outerSuffixes = indexRules(
      affix.suffixes.filter(r => affix.continuationFlags.has(r.flag)),
    );
    this.twoLevel = affix.continuationFlags.size > 0;
  }

  /** Visits every derivation of `word`; true when the visitor stopped the search. */
  eachRoot(word: string, visit: RootVisitor): boolean {
    return (
      this.withPrefix(word, visit) ||
      this.withSuffix(word, {}, visit) ||
      (this.twoLevel &&
        (this.withTwoSuffixes(word, undefined, visit) ||
          this.withPrefixAndTwoSuffixes(word, visit)))
    );
  }

  private withPrefix(word: string, visit: RootVisitor): boolean {
    return this.eachPrefixRoot(word, (rule, root) => {
      if (this.visitHomonyms(root, flags => flags.includes(rule.flag), visit))
        return true;
      return (
        rule.crossProduct && this.withSuffix(root, { prefix: rule }, visit)
      );
    });
  }

  private withPrefixAndTwoSuffixes(word: string, visit: RootVisitor): boolean {
    return this.eachPrefixRoot(
      word,
      (rule, root) =>
        rule.crossProduct && this.withTwoSuffixes(root, rule, visit),
    );
  }

  private withSuffix(
    word: string,
    context: SuffixContext,
    visit: RootVisitor,
  ): boolean {
    const { prefix, continuationOf } = context;
    const index = continuationOf ? this.continuedSuffixes : this.suffixes;
    return this.eachSuffixRoot(word, index, true, (rule, root) => {
      if (prefix && !rule.crossProduct) return false;
      if (continuationOf && !rule.continuation.includes(continuationOf))
        return false;
      // A prefix may enable a suffix through its continuation classes, and a suffix may
      // allow a prefix the root lacks through its own (cs_CZ: "nej" + "-ější/E").
      const prefixEnables =
        prefix !== undefined && prefix.continuation.includes(rule.flag);
      const suffixAllowsPrefix =
        prefix !== undefined && rule.continuation.includes(prefix.flag);
      return this.visitHomonyms(
        root,
        flags =>
          (flags.includes(rule.flag) || prefixEnables) &&
          (!prefix || suffixAllowsPrefix || flags.includes(prefix.flag)),
        visit,
      );
    });
  }

  /** The outer suffix removed first, then an inner suffix that lists it as continuation. */
  private withTwoSuffixes(
    word: string,
    prefix: AffixRule | undefined,
    visit: RootVisitor,
  ): boolean {
    return this.eachSuffixRoot(
      word,
      this.outerSuffixes,
      false,
      (outer, inner) => {
        if (prefix && !outer.crossProduct) return false;
        const context: SuffixContext =
          prefix && !outer.continuation.includes(prefix.flag)
            ? { prefix, continuationOf: outer.flag }
            : { continuationOf: outer.flag };
        return this.withSuffix(inner, context, visit);
      },
    );
  }

  private eachPrefixRoot(
    word: string,
    each: (rule: AffixRule, root: string) => boolean,
  ): boolean {
    const longest = Math.min(this.prefixes.longestAppend, word.length - 1);
    for (let length = 0; length <= longest; length++) {
      const rules = this.prefixes.byAppend.get(word.slice(0, length));
      if (!rules) continue;
      const rest = word.slice(length);
      for (const rule of rules) {
        const root = rule.strip + rest;
        if (matchesStart(rule.condition, root) && each(rule, root)) return true;
      }
    }
    return false;
  }

  /**
   * With `mustBeWord` (the root is looked up, not stripped further) the word filter is asked
   * before the root is built: most proposed roots are not words, and building a string only
   * to miss in the map is the main cost of a lookup.
   */
  private eachSuffixRoot(
    word: string,
    index: RuleIndex,
    mustBeWord: boolean,
    each: (rule: AffixRule, root: string) => boolean,
  ): boolean {
    const longest = Math.min(index.longestAppend, word.length - 1);
    for (let length = 0; length <= longest; length++) {
      const rules = index.byAppend.get(word.slice(word.length - length));
      if (!rules) continue;
      const rest = word.slice(0, word.length - length);
      const restA = mustBeWord ? hashTextA(HASH_SEED_A, rest) : 0;
      const restB = mustBeWord ? hashTextB(HASH_SEED_B, rest) : 0;
      for (const rule of rules) {
        if (
          mustBeWord &&
          !this.words.mayContain(
            hashTextA(restA, rule.strip),
            hashTextB(restB, rule.strip),
          )
        )
          continue;
        const root = rest + rule.strip;
        if (matchesEnd(rule.condition, root) && each(rule, root)) return true;
      }
    }
    return false;
  }

  private visitHomonyms(
    root: string,
    accept: (flags: string) => boolean,
    visit: RootVisitor,
  ): boolean {
    const homonyms = this.words.get(root);
    if (homonyms === undefined) return false;
    if (typeof homonyms === 'string')
      return accept(homonyms) && visit(root, homonyms);
    for (const flags of homonyms) {
      if (accept(flags) && visit(root, flags)) return true;
    }
    return false;
  }
}
