// Content digests in text: found, shortened for the eye, kept whole for copying.

/** An OCI/bundle content digest: algorithm, colon, at least 16 hex characters. */
const DIGEST = /\b(sha256|sha384|sha512):([0-9a-f]{16,})\b/g;
/** Hex characters kept on screen: enough to tell revisions apart at a glance. */
export const SHOWN_HEX = 8;

/** "sha256:abcdef1234…" -> "sha256:abcdef12…"; anything that is not a digest comes back as it is. */
export function shortenDigest(value: string): string {
  const colon = value.indexOf(':');
  const hex = colon < 0 ? value : value.slice(colon + 1);
  if (!/^[0-9a-f]+$/.test(hex) || hex.length <= SHOWN_HEX) return value;
  return (colon < 0 ? '' : value.slice(0, colon + 1)) + hex.slice(0, SHOWN_HEX) + '…';
}

export type TextPart = { text: string } | { digest: string };

/** The text cut into plain pieces and whole digests, in order (no empty pieces). */
export function splitDigests(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(DIGEST)) {
    const at = match.index ?? 0;
    if (at > last) parts.push({ text: text.slice(last, at) });
    parts.push({ digest: match[0] });
    last = at + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}
