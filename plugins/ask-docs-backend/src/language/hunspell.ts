/**
 * Loads a hunspell dictionary through nodehun. The dictionaries are GPL data installed by the
 * system (Debian hunspell-cs): they are read from their path at run time, never bundled.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

/** The part of nodehun the analyzers use (the sync methods; see README.md for why). */
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
  let Nodehun: new (affix: Buffer, dictionary: Buffer) => HunspellDictionary;
  try {
    // Required lazily so a missing native build fails here, with the dictionary context,
    // and can be handled like a missing dictionary.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    Nodehun = require('nodehun').Nodehun;
  } catch (error) {
    throw new DictionaryUnavailableError(
      `The nodehun native module cannot be loaded: ${(error as Error).message}`,
      error,
    );
  }
  const fingerprint = createHash('sha256')
    .update(affix)
    .update(dic)
    .digest('hex')
    .slice(0, 12);
  return { dictionary: new Nodehun(affix, dic), fingerprint };
}
