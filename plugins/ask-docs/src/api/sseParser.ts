/**
 * Incremental text/event-stream parser: feed it decoded text in arbitrary pieces and
 * it returns the `data` payload of every event completed so far. Only `data` matters
 * for our protocol; `event`, `id`, `retry` and comment lines are accepted and ignored.
 */
export class SseParser {
  private buffer = '';
  private dataLines: string[] = [];
  private sawData = false;

  push(text: string): string[] {
    this.buffer += text;
    const events: string[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) break;
      // A lone trailing '\r' may be the first half of '\r\n'; wait for more input.
      if (match[0] === '\r' && match.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const event = this.processLine(line);
      if (event !== undefined) events.push(event);
    }
    return events;
  }

  /**
   * Ends the stream. An event without its terminating blank line is discarded, as the SSE spec
   * says: a stream cut off mid-event must not pass for a complete one.
   */
  flush(): string[] {
    // A trailing '\r' held back as a possible half of '\r\n' ends its line after all.
    const events = this.buffer.endsWith('\r') ? this.push('\n') : [];
    this.buffer = '';
    this.dataLines = [];
    this.sawData = false;
    return events;
  }

  private processLine(line: string): string | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.dataLines.push(value);
      this.sawData = true;
    }
    return undefined;
  }

  private dispatch(): string | undefined {
    if (!this.sawData) return undefined;
    const data = this.dataLines.join('\n');
    this.dataLines = [];
    this.sawData = false;
    return data;
  }
}

/** Minimal reader shape, so tests and non-DOM runtimes can supply their own body. */
interface ByteReader {
  read(): Promise<{ done: boolean; value?: Uint8Array }>;
  releaseLock?(): void;
  cancel?(): Promise<void>;
}

/** Yields the data payload of each event of a streamed response body. */
export async function* readSseData(body: {
  getReader(): ByteReader;
}): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8');
  const parser = new SseParser();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (value) {
        yield* parser.push(decoder.decode(value, { stream: true }));
      }
    }
    finished = true;
    yield* parser.push(decoder.decode());
    yield* parser.flush();
  } finally {
    // Stop the download when the consumer stops early (e.g. a newer question).
    if (!finished) await reader.cancel?.().catch(() => {});
    reader.releaseLock?.();
  }
}
