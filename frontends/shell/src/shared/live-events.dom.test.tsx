import { renderScreen } from '@bahi/ui/testing';
import { cleanup } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LiveEventsProvider, RECONNECT_MAX_MS, reconnectDelay } from './live-events.tsx';

/** A stand-in for the browser's EventSource: the test sends the stream's events. */
class FakeSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static all: FakeSource[] = [];
  static get last(): FakeSource | undefined {
    return FakeSource.all.at(-1);
  }
  readonly listeners = new Map<string, (e: MessageEvent) => void>();
  onerror: (() => void) | null = null;
  readyState = FakeSource.OPEN;
  closed = false;
  constructor(readonly url: string) {
    FakeSource.all.push(this);
  }
  addEventListener(name: string, listener: (e: MessageEvent) => void) {
    this.listeners.set(name, listener);
  }
  close() {
    this.closed = true;
    this.readyState = FakeSource.CLOSED;
  }
  emit(name: string, data: unknown, lastEventId = '') {
    this.listeners.get(name)?.(new MessageEvent(name, { data: JSON.stringify(data), lastEventId }));
  }
  /** The connection failed: CONNECTING when the browser retries by itself, CLOSED when it gave up. */
  fail(state: number) {
    this.readyState = state;
    this.onerror?.();
  }
}

function listen(name: string) {
  const seen: unknown[] = [];
  const record = (e: Event) => seen.push((e as CustomEvent).detail);
  window.addEventListener(name, record);
  return { seen, stop: () => window.removeEventListener(name, record) };
}

describe('live stream (docs/frontend.md)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.useRealTimers();
    FakeSource.all = [];
  });

  it('re-broadcasts data-changed and notification as window events for the remotes', () => {
    vi.stubGlobal('EventSource', FakeSource);
    const seen: [string, unknown][] = [];
    const record = (e: Event) => seen.push([e.type, (e as CustomEvent).detail]);
    window.addEventListener('bahi:data-changed', record);
    window.addEventListener('bahi:notification', record);
    renderScreen('/', <LiveEventsProvider>{null}</LiveEventsProvider>);
    const source = FakeSource.last!;
    expect(source.url).toBe('/api/events');
    const ready = { title: 'Report ready', link: '/api/reports/files/abc', type: 'success' };
    source.emit('notification', ready);
    source.emit('data-changed', { type: 'PaymentRecorded', stream: 'payment' });
    expect(seen).toEqual([
      ['bahi:notification', ready],
      ['bahi:data-changed', { type: 'PaymentRecorded', stream: 'payment' }],
    ]);
    window.removeEventListener('bahi:data-changed', record);
    window.removeEventListener('bahi:notification', record);
  });

  it('waits 1 s doubling to 10 s, with jitter, between tries', () => {
    expect(reconnectDelay(0, () => 1)).toBe(1000);
    expect(reconnectDelay(0, () => 0)).toBe(500);
    expect(reconnectDelay(1, () => 1)).toBe(2000);
    expect(reconnectDelay(3, () => 1)).toBe(8000);
    expect(reconnectDelay(4, () => 1)).toBe(RECONNECT_MAX_MS);
    expect(reconnectDelay(40, () => 0.5)).toBe(7500);
  });

  it('opens a new stream after the browser gave up on one, backing off until a ready, then refetches everything', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('EventSource', FakeSource);
    const resync = listen('bahi:resync');
    renderScreen('/', <LiveEventsProvider>{null}</LiveEventsProvider>);
    const first = FakeSource.last!;
    first.emit('ready', { position: '10' });
    expect(resync.seen).toHaveLength(0); // the first stream of the page: nothing to catch up on
    // A gateway's 502 while the server restarts: the browser closes the stream for good.
    first.fail(FakeSource.CLOSED);
    expect(first.closed).toBe(true);
    expect(FakeSource.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakeSource.all).toHaveLength(2);
    // Refused again: the waits grow (at most 2 s, then at most 4 s).
    FakeSource.last!.fail(FakeSource.CLOSED);
    await vi.advanceTimersByTimeAsync(2000);
    expect(FakeSource.all).toHaveLength(3);
    FakeSource.last!.fail(FakeSource.CLOSED);
    await vi.advanceTimersByTimeAsync(4000);
    expect(FakeSource.all).toHaveLength(4);
    // Back: a new stream carries no Last-Event-ID, so what it missed is unknown.
    FakeSource.last!.emit('ready', { position: '42' });
    expect(resync.seen).toHaveLength(1);
    // The backoff starts again from 1 s.
    FakeSource.last!.fail(FakeSource.CLOSED);
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakeSource.all).toHaveLength(5);
    expect(FakeSource.all.slice(0, 4).every((s) => s.closed)).toBe(true);
    resync.stop();
  });

  it('lets the browser retry by itself, and refetches only when the server says missed or nothing proves otherwise', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('EventSource', FakeSource);
    const resync = listen('bahi:resync');
    renderScreen('/', <LiveEventsProvider>{null}</LiveEventsProvider>);
    const source = FakeSource.last!;
    source.emit('ready', { position: '10' });
    // No event with an id yet: a retry resumes from the head, so a change in between is unknown.
    source.fail(FakeSource.CONNECTING);
    await vi.advanceTimersByTimeAsync(RECONNECT_MAX_MS);
    expect(FakeSource.all).toHaveLength(1); // the browser's own retry, not a new stream
    expect(source.closed).toBe(false);
    source.emit('ready', { position: '12' });
    expect(resync.seen).toHaveLength(1);
    // An event with an id: the browser's retry resumes after it, and the server replays the rest.
    source.emit('data-changed', { type: 'FunderCreated', stream: 'funder' }, '13');
    source.fail(FakeSource.CONNECTING);
    source.emit('ready', { position: '13' });
    expect(resync.seen).toHaveLength(1);
    // Away longer than the server's replay window: it says so.
    source.fail(FakeSource.CONNECTING);
    source.emit('ready', { position: '20000', missed: true });
    expect(resync.seen).toHaveLength(2);
    resync.stop();
  });

  it('stops trying when the page signs out or unmounts', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('EventSource', FakeSource);
    const { unmount } = renderScreen('/', <LiveEventsProvider>{null}</LiveEventsProvider>);
    FakeSource.last!.fail(FakeSource.CLOSED);
    unmount();
    await vi.advanceTimersByTimeAsync(RECONNECT_MAX_MS * 2);
    expect(FakeSource.all).toHaveLength(1);
  });
});
