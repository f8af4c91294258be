/**
 * A hunspell dictionary reader in TypeScript: spelling and stemming for dictionaries in the
 * hunspell format (.aff + .dic), without a native module. See ../README.md.
 */
import { parseAffixFile } from './affixFile';
import { HunspellReader } from './reader';
import { parseDictionaryFile } from './wordTable';

export { HunspellReader } from './reader';
export { UnsupportedAffixFileError } from './affixFile';
export { UnsupportedDictionaryFileError } from './wordTable';

/** Parses both files; throws Unsupported*Error for features the reader does not implement. */
export function createHunspellReader(
  affixText: string,
  dictionaryText: string,
): HunspellReader {
  const affix = parseAffixFile(affixText);
  const words = parseDictionaryFile(dictionaryText, affix.forbiddenFlag);
  return new HunspellReader(affix, words);
}
