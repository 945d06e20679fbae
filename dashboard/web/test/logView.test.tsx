import { act, cleanup, render, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LogView } from '../src/components/LogView';
import { ConsoleText } from '../src/logText';

/** Stands in for the browser's EventSource: the test plays the BFF's SSE events. */
class FakeEventSource {
  static CLOSED = 2;
  static last: FakeEventSource;
  readyState = 1;
  listeners: Record<string, ((event: MessageEvent) => void)[]> = {};
  constructor(readonly url: string) {
    FakeEventSource.last = this;
  }
  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    (this.listeners[type] ??= []).push(listener);
  }
  close() {
    this.readyState = 2;
  }
  emit(type: string, data: unknown, lastEventId = '') {
    for (const listener of this.listeners[type] ?? []) {
      listener(new MessageEvent(type, { data: JSON.stringify(data), lastEventId }));
    }
  }
}

describe('log view', () => {
  beforeEach(() => vi.stubGlobal('EventSource', FakeEventSource));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('follows the stream, appends each chunk once, and says when the log is complete', () => {
    render(<LogView runId="run-1" live={true} />);
    const source = FakeEventSource.last;
    expect(source.url).toBe('/runs/run-1/log/stream?from=0');
    const log = screen.getByLabelText('Console log');
    expect(document.querySelector('[data-log-state]')!.getAttribute('data-log-state')).toBe('following');

    act(() => source.emit('chunk', { offset: 0, text: 'Started by user\n' }, '16'));
    act(() => source.emit('chunk', { offset: 16, text: '[Pipeline] echo\n' }, '32'));
    // after a reconnect the BFF resumes at Last-Event-ID; an older chunk is not shown twice
    act(() => source.emit('chunk', { offset: 0, text: 'Started by user\n' }, '16'));
    expect(log.textContent).toBe('Started by user\n[Pipeline] echo\n');

    act(() => source.emit('end', { size: 32 }));
    expect(document.querySelector('[data-log-state]')!.getAttribute('data-log-state')).toBe('complete');
    expect(source.readyState).toBe(FakeEventSource.CLOSED);
  });

  it('reads a finished run page by page with GET .../log', async () => {
    const pages = ['first part\n', 'second part\n'];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (path: string) => {
        const from = Number(new URL(path, 'http://x').searchParams.get('from'));
        const page = from === 0 ? 0 : 1;
        const next = from + pages[page].length;
        return new Response(pages[page], {
          headers: { 'Varroa-Log-Size': '23', 'Varroa-Log-Next': String(next), 'Varroa-Log-Complete': 'true' },
        });
      }),
    );
    render(<LogView runId="run-2" live={false} />);
    await vi.waitFor(() =>
      expect(document.querySelector('[data-log-state]')!.getAttribute('data-log-state')).toBe('complete'),
    );
    expect(screen.getByLabelText('Console log').textContent).toBe('first part\nsecond part\n');
  });
});

describe('console text', () => {
  it('drops Jenkins console notes and colour codes, even when a chunk cuts one', () => {
    const text = new ConsoleText();
    const first = text.push('a \u001b[8mha:AAAA');
    const second = text.push('BBBB\u001b[0mb \u001b[32mgreen\u001b[');
    const third = text.push('0m\n');
    expect(first + second + third).toBe('a b green\n');
  });
});
