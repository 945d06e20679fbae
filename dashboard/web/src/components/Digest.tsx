import { useEffect, useState } from 'preact/hooks';
import { shortenDigest, splitDigests } from '../digest';
import '../digest.css';

/** Puts text on the clipboard: the Clipboard API, or a selected textarea where the page may not use it. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    return copied;
  }
}

/** How long "copied" stays shown after a click. */
const COPIED_SHOWN_MS = 1500;

/** A digest shortened to sha256:abcdef12…; the full value in its title, copied on click. */
export function Digest({ value }: { value: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | ''>('');
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(''), COPIED_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <button
      type="button"
      class="digest-copy"
      title={value}
      data-digest={value}
      data-copied={copied || undefined}
      aria-label={`Copy digest ${value}`}
      onClick={() => copyText(value).then((ok) => setCopied(ok ? 'yes' : 'failed'))}
    >
      <code>{shortenDigest(value)}</code>
      <span class="digest-copied" aria-live="polite">
        {copied === 'yes' ? 'copied' : copied === 'failed' ? 'copy failed' : ''}
      </span>
    </button>
  );
}

/** Text with every digest in it shown as a {@link Digest}. */
export function DigestText({ text }: { text: string }) {
  return (
    <>
      {splitDigests(text).map((part, i) =>
        'digest' in part ? <Digest value={part.digest} key={i} /> : <span key={i}>{part.text}</span>,
      )}
    </>
  );
}
