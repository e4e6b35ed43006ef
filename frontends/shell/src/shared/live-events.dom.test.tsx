import { renderScreen } from '@bahi/ui/testing';
import { cleanup } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LiveEventsProvider } from './live-events.tsx';

/** A stand-in for the browser's EventSource: the test sends the stream's events. */
class FakeSource {
  static last: FakeSource | undefined;
  readonly listeners = new Map<string, (e: MessageEvent) => void>();
  onerror: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeSource.last = this;
  }
  addEventListener(name: string, listener: (e: MessageEvent) => void) {
    this.listeners.set(name, listener);
  }
  close() {
    this.closed = true;
  }
  emit(name: string, data: unknown) {
    this.listeners.get(name)?.(new MessageEvent(name, { data: JSON.stringify(data) }));
  }
}

describe('live stream re-broadcast (docs/frontend.md)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
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
});
