/**
 * Loads a hunspell dictionary with our TypeScript reader (./hunspellReader): no native
 * module, so the backend installs from the registry without a compiler. The dictionaries are
 * GPL data installed by the system (Debian hunspell-cs): read from their path at run time,
 * never bundled.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  createHunspellReader,
  UnsupportedAffixFileError,
  UnsupportedDictionaryFileError,
} from './hunspellReader';

/** What the analyzers use: hunspell's stem and spell (synchronous; see README.md). */
export interface HunspellDictionary {
  stemSync(word: string): string[];
  spellSync(word: string): boolean;
}

export interface LoadedHunspell {
  dictionary: HunspellDictionary;
  /** Short content hash of the .aff and .dic files: part of the analyzer signature. */
  fingerprint: string;
}

export class DictionaryUnavailableError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'DictionaryUnavailableError';
  }
}

export async function loadHunspell(paths: {
  affPath: string;
  dicPath: string;
}): Promise<LoadedHunspell> {
  let affix: Buffer;
  let dic: Buffer;
  try {
    [affix, dic] = await Promise.all([
      readFile(paths.affPath),
      readFile(paths.dicPath),
    ]);
  } catch (error) {
    throw new DictionaryUnavailableError(
      `Cannot read hunspell dictionary ${paths.affPath} / ${paths.dicPath}: ${
        (error as Error).message
      }`,
      error,
    );
  }
  const unusable = (reason: string, cause: unknown) =>
    new DictionaryUnavailableError(
      `Cannot use hunspell dictionary ${paths.affPath} / ${paths.dicPath}: ${reason}`,
      cause,
    );
  let texts: [string, string];
  try {
    const utf8 = new TextDecoder('utf-8', { fatal: true });
    texts = [utf8.decode(affix), utf8.decode(dic)];
  } catch (error) {
    throw unusable('the files are not UTF-8', error);
  }
  let dictionary: HunspellDictionary;
  try {
    dictionary = createHunspellReader(...texts);
  } catch (error) {
    // A dictionary using features the reader lacks would give wrong answers: refuse it.
    if (
      error instanceof UnsupportedAffixFileError ||
      error instanceof UnsupportedDictionaryFileError
    )
      throw unusable(error.message, error);
    throw error;
  }
  const fingerprint = createHash('sha256')
    .update(affix)
    .update(dic)
    .digest('hex')
    .slice(0, 12);
  return { dictionary, fingerprint };
}
