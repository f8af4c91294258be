import fs from 'fs';
import path from 'path';
import zlib from 'zlib';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const encode = (n: number): string =>
  n < 64 ? B64[n] : encode(Math.floor(n / 64)) + B64[n % 64];

/** Writes a dictd dictionary of `entries` (headword line, then translation lines). */
export function writeDictd(
  dir: string,
  entries: string[],
  compressed = true,
): string {
  const base = path.join(dir, 'test-eng-ces');
  let dict = Buffer.alloc(0);
  const index: string[] = ['00databaseshort\tA\tB'];
  for (const entry of entries) {
    const bytes = Buffer.from(`${entry}\n`, 'utf8');
    // As dictfmt files it: lowercase, punctuation removed ("we'll" under "well").
    const headword = entry
      .split('\n')[0]
      .replace(/\s*<[^>]*>$/, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N} ]/gu, '');
    index.push(`${headword}\t${encode(dict.length)}\t${encode(bytes.length)}`);
    dict = Buffer.concat([dict, bytes]);
  }
  fs.writeFileSync(`${base}.index`, `${index.join('\n')}\n`);
  if (compressed) fs.writeFileSync(`${base}.dict.dz`, zlib.gzipSync(dict));
  else fs.writeFileSync(`${base}.dict`, dict);
  return base;
}
