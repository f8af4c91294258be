import { DEFAULT_MAX_CHUNK_CHARS, parseHtmlPage } from './parsing';
import { PARSER_VERSION } from './parsing/parserVersion';
import { pageSignature } from './pageSignature';

const page = (anchor: string, body = 'Undo a deploy with shipctl rollback.') =>
  parseHtmlPage(
    `<html><body><main><h2 id="${anchor}">Rolling back</h2><p>${body}</p></main></body></html>`,
  );

describe('pageSignature', () => {
  it('is the same for the same page, chunk size and parser', () => {
    expect(pageSignature(page('rollback'))).toBe(
      pageSignature(page('rollback'), {
        maxChunkChars: DEFAULT_MAX_CHUNK_CHARS,
        parserVersion: PARSER_VERSION,
      }),
    );
  });

  it('changes with the anchors, the text, the chunk size and the parser version', () => {
    const before = pageSignature(page('rollback'));
    expect(pageSignature(page('how-to-roll-back'))).not.toBe(before);
    expect(pageSignature(page('rollback', 'Run shipctl undo.'))).not.toBe(
      before,
    );
    expect(pageSignature(page('rollback'), { maxChunkChars: 600 })).not.toBe(
      before,
    );
    const next = { parserVersion: PARSER_VERSION + 1 };
    expect(pageSignature(page('rollback'), next)).not.toBe(before);
  });
});
