import { EventEmitter } from 'events';
import express from 'express';
import { HEARTBEAT_INTERVAL_MS, startHeartbeat } from './askStream';

describe('the stream heartbeat', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** A response that records what is written to it. */
  function fakeResponse() {
    const res = Object.assign(new EventEmitter(), {
      written: [] as string[],
      writableEnded: false,
      destroyed: false,
      write: (chunk: string) => res.written.push(chunk),
      flush: jest.fn(),
    });
    return res;
  }

  it('keeps a proxy’s 60 s idle timeout from cutting a slow answer', () => {
    expect(HEARTBEAT_INTERVAL_MS).toBeLessThan(60_000 / 2);
    const res = fakeResponse();
    const stop = startHeartbeat(res as unknown as express.Response);
    jest.advanceTimersByTime(HEARTBEAT_INTERVAL_MS - 1);
    expect(res.written).toEqual([]);
    jest.advanceTimersByTime(1);
    // An SSE comment: clients ignore it, it is no event.
    expect(res.written).toEqual([': ping\n\n']);
    expect(res.flush).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(3 * HEARTBEAT_INTERVAL_MS);
    expect(res.written).toHaveLength(4);
    stop();
    jest.advanceTimersByTime(10 * HEARTBEAT_INTERVAL_MS);
    expect(res.written).toHaveLength(4);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('stops when the client goes away', () => {
    const res = fakeResponse();
    startHeartbeat(res as unknown as express.Response, 1000);
    jest.advanceTimersByTime(1000);
    expect(res.written).toHaveLength(1);
    res.destroyed = true;
    res.emit('close');
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(5000);
    expect(res.written).toHaveLength(1);
  });
});
