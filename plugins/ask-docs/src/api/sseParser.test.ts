import { SseParser, readSseData } from './sseParser';

function streamOf(pieces: Array<string | Uint8Array>) {
  const encoder = new TextEncoder();
  let i = 0;
  const cancel = jest.fn(async () => {});
  return {
    cancel,
    body: {
      getReader: () => ({
        read: async () =>
          i < pieces.length
            ? {
                done: false,
                value:
                  typeof pieces[i] === 'string'
                    ? encoder.encode(pieces[i++] as string)
                    : (pieces[i++] as Uint8Array),
              }
            : { done: true },
        cancel,
        releaseLock: () => {},
      }),
    },
  };
}

async function collect(iterable: AsyncIterable<string>) {
  const out: string[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('SseParser', () => {
  it('emits one payload per blank-line-terminated event', () => {
    const parser = new SseParser();
    expect(parser.push('data: {"a":1}\n\ndata: {"b":2}\n\n')).toEqual([
      '{"a":1}',
      '{"b":2}',
    ]);
  });

  it('keeps partial lines and events until they are complete', () => {
    const parser = new SseParser();
    expect(parser.push('data: {"te')).toEqual([]);
    expect(parser.push('xt":"hi"}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual(['{"text":"hi"}']);
  });

  it('joins multi-line data with newlines and ignores comments and other fields', () => {
    const parser = new SseParser();
    const events = parser.push(
      ': keep-alive\nevent: message\nid: 7\ndata: line one\ndata:line two\nretry: 10\n\n',
    );
    expect(events).toEqual(['line one\nline two']);
  });

  it('accepts CRLF and CR line endings, including a CRLF split across chunks', () => {
    const parser = new SseParser();
    expect(parser.push('data: x\r')).toEqual([]);
    expect(parser.push('\n\r\ndata: y\r\r')).toEqual(['x']);
    // A trailing CR may still be half of a CRLF; the end of the stream settles it.
    expect(parser.flush()).toEqual(['y']);
  });

  it('does not emit events that carried no data', () => {
    const parser = new SseParser();
    expect(parser.push('event: ping\n\n: comment\n\n\n')).toEqual([]);
  });

  it('discards a final event that lacks its terminating blank line, as the spec says', () => {
    const parser = new SseParser();
    expect(parser.push('data: done\n\ndata: cut')).toEqual(['done']);
    expect(parser.flush()).toEqual([]);
    // Also when its last line is complete: only the blank line ends an event.
    expect(parser.push('data: cut\n')).toEqual([]);
    expect(parser.flush()).toEqual([]);
  });
});

describe('readSseData', () => {
  it('decodes multi-byte characters split across chunks', async () => {
    const bytes = new TextEncoder().encode('data: Rückgängig ›\n\n');
    // Split inside the two-byte 'ü'.
    const cut = bytes.indexOf(0xc3) + 1;
    const { body } = streamOf([bytes.slice(0, cut), bytes.slice(cut)]);
    await expect(collect(readSseData(body))).resolves.toEqual(['Rückgängig ›']);
  });

  it('cancels the body when the consumer stops early', async () => {
    const { body, cancel } = streamOf([
      'data: 1\n\n',
      'data: 2\n\n',
      'data: 3\n\n',
    ]);
    for await (const payload of readSseData(body)) {
      expect(payload).toBe('1');
      break;
    }
    expect(cancel).toHaveBeenCalledTimes(1);
  });

  it('yields no event the body ends in the middle of', async () => {
    const { body } = streamOf(['data: 1\n\n', 'data: {"type":"do']);
    await expect(collect(readSseData(body))).resolves.toEqual(['1']);
  });

  it('does not cancel a body that was read to the end', async () => {
    const { body, cancel } = streamOf(['data: 1\n\n']);
    await expect(collect(readSseData(body))).resolves.toEqual(['1']);
    expect(cancel).not.toHaveBeenCalled();
  });
});
