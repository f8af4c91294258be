import { promises as fs } from 'fs';
import * as path from 'path';
import { chunkSections } from './chunkSections';
import { sha256Hex } from './identity';
import { parseHtmlPage } from './parseHtmlPage';
import { PARSER_VERSION } from './parserVersion';
import { listFiles, unpackCorpus } from './testUtils/unpackCorpus';

/*
 * An unchanged TechDocs site is not read again while its build and PARSER_VERSION are the same
 * (Ingester's site key): a parser that makes other sections or chunks of the same pages without
 * a new version would leave every unchanged site as the old parser cut it. This ties the
 * version to what the parser makes of two real TechDocs sites.
 */

jest.setTimeout(120_000);

/** The parser's version and the hash of its sections and chunks for both sites, as released. */
const RELEASED = {
  parserVersion: 1,
  output: 'f943c4c3cbafdf9e132cc688f940245f3e413657aa802f68cc322abd2bb86d28',
};

async function outputHash(): Promise<string> {
  const parts: unknown[] = [];
  for (const corpus of ['mkdocs-docs-en', 'pyvec-docs-cs']) {
    const site = path.join(await unpackCorpus(corpus), 'site');
    for (const rel of (
      await listFiles(site, f => f.endsWith('.html'))
    ).sort()) {
      const page = parseHtmlPage(
        await fs.readFile(path.join(site, rel), 'utf8'),
      );
      const chunks = chunkSections(page, { documentId: `${corpus}/${rel}` });
      parts.push([rel, page.title, page.sections, chunks]);
    }
  }
  return sha256Hex(JSON.stringify(parts));
}

describe('PARSER_VERSION', () => {
  it('changes whenever what the parser makes of the same pages changes', async () => {
    const output = await outputHash();
    // Failing here: the parser's output changed. Bump PARSER_VERSION (sites and pages indexed
    // before are then parsed again once) and record the new version and hash above.
    expect({ parserVersion: PARSER_VERSION, output }).toEqual(RELEASED);
  });
});
