import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, getResponse } from '../api';
import { ConsoleText } from '../logText';

// The console log: live tail over SSE while the run goes on, else read whole with GET .../log.

const PAGE_BYTES = 1048576;

type LogState = 'connecting' | 'following' | 'complete' | 'failed';

interface Props {
  runId: string;
  /** True while the run has no completedAt: follow the stream. */
  live: boolean;
}

export function LogView({ runId, live }: Props) {
  const pre = useRef<HTMLPreElement>(null);
  const [state, setState] = useState<LogState>('connecting');
  const [problem, setProblem] = useState<string>('');
  const [bytes, setBytes] = useState(0);
  const [empty, setEmpty] = useState(true);
  // Once following, stay on the stream even when the run page learns of completedAt first: the stream's end says.
  const mode = useRef<'stream' | 'read' | null>(null);
  if (mode.current === null) mode.current = live ? 'stream' : 'read';

  useEffect(() => {
    const element = pre.current!;
    element.textContent = '';
    setEmpty(true);
    setProblem('');
    setBytes(0);
    const text = new ConsoleText();
    let closed = false;

    const append = (chunk: string) => {
      if (!chunk) return;
      const atBottom = element.scrollHeight - element.scrollTop - element.clientHeight < 24;
      element.appendChild(document.createTextNode(chunk));
      setEmpty(false);
      if (atBottom) element.scrollTop = element.scrollHeight;
    };

    const explain = (error: unknown) => {
      if (closed) return;
      setState('failed');
      setProblem(error instanceof ApiError ? error.message : String(error));
    };

    if (mode.current === 'stream') {
      setState('following');
      let next = 0;
      const source = new EventSource(`/runs/${encodeURIComponent(runId)}/log/stream?from=0`);
      source.addEventListener('chunk', (message) => {
        const event = message as MessageEvent<string>;
        let data: { offset: number; text: string };
        try {
          data = JSON.parse(event.data);
        } catch {
          return;
        }
        // A reconnect resumes from Last-Event-ID; a chunk from before that point is already on screen.
        if (data.offset < next) return;
        next = Number(event.lastEventId) || data.offset;
        setBytes(next);
        append(text.push(data.text));
      });
      source.addEventListener('end', (message) => {
        source.close();
        let reason = '';
        try {
          const data = JSON.parse((message as MessageEvent<string>).data);
          if (typeof data.size === 'number') setBytes(data.size);
          if (typeof data.size !== 'number' && typeof data.reason === 'string') reason = data.reason;
        } catch {
          // the size is only shown
        }
        append(text.flush());
        if (reason) {
          // the BFF ended the stream before the log's end (a logout, an expired session, a removed binding)
          explain(reason);
        } else {
          setState('complete');
        }
      });
      source.addEventListener('error', () => {
        // CLOSED: the server refused the stream (the browser does not say why); ask the plain route for the reason.
        if (source.readyState === EventSource.CLOSED && !closed) {
          getResponse(`/runs/${encodeURIComponent(runId)}/log?from=0&length=1`, 'text/plain').then(
            () => explain('the live log stream closed; reload to read the log'),
            explain,
          );
        }
      });
      return () => {
        closed = true;
        source.close();
      };
    }

    setState('connecting');
    (async () => {
      let from = 0;
      for (;;) {
        const response = await getResponse(
          `/runs/${encodeURIComponent(runId)}/log?from=${from}&length=${PAGE_BYTES}`,
          'text/plain',
        );
        const body = await response.text();
        if (closed) return;
        append(text.push(body));
        const size = Number(response.headers.get('Varroa-Log-Size') ?? '0');
        const nextOffset = Number(response.headers.get('Varroa-Log-Next') ?? String(from + body.length));
        setBytes(nextOffset);
        if (nextOffset >= size || nextOffset <= from) break;
        from = nextOffset;
      }
      append(text.flush());
      if (!closed) setState('complete');
    })().catch(explain);
    return () => {
      closed = true;
    };
  }, [runId]);

  const label =
    state === 'following' ? 'Following' : state === 'complete' ? 'Complete' : state === 'failed' ? 'Stopped' : 'Loading';
  return (
    <div class="log">
      <div class="log-head">
        <h2 id="log-heading">Console log</h2>
        <span class={`log-state ${state}`} data-log-state={state}>
          {state === 'following' ? <span class="dot" aria-hidden="true" /> : null}
          {label}
        </span>
        <span class="muted">{bytes.toLocaleString()} bytes</span>
      </div>
      {problem ? (
        <div role="alert" class="error">
          The console log could not be read: {problem}
        </div>
      ) : null}
      <pre aria-label="Console log" class="console" ref={pre} tabIndex={0} />
      {empty && state !== 'failed' ? (
        state === 'complete' ? (
          <p class="empty">This run wrote no console output.</p>
        ) : (
          <p role="status" class="loading">
            {state === 'following' ? 'Waiting for console output…' : 'Loading the console log…'}
          </p>
        )
      ) : null}
    </div>
  );
}
