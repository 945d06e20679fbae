import { fireEvent, render, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DigestText } from '../src/components/Digest';
import { shortenDigest, splitDigests } from '../src/digest';

const FULL = 'sha256:' + 'abcdef12'.repeat(8);

describe('digests in text', () => {
  it('shortens to the algorithm and eight hex characters', () => {
    expect(shortenDigest(FULL)).toBe('sha256:abcdef12…');
    expect(shortenDigest('sha256:abc')).toBe('sha256:abc');
    expect(shortenDigest('main')).toBe('main');
  });

  it('cuts a summary into text and whole digests', () => {
    expect(splitDigests(`desired state ${FULL} applied`)).toEqual([
      { text: 'desired state ' },
      { digest: FULL },
      { text: ' applied' },
    ]);
    expect(splitDigests('phase Pending -> Running')).toEqual([{ text: 'phase Pending -> Running' }]);
  });
});

describe('DigestText', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the short form, keeps the full value in the title and copies it on click', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const { container, getByRole } = render(<DigestText text={`desired state ${FULL} applied`} />);
    expect(container.textContent).toBe('desired state sha256:abcdef12… applied');
    const button = getByRole('button');
    expect(button.getAttribute('title')).toBe(FULL);
    fireEvent.click(button);
    await waitFor(() => expect(button.getAttribute('data-copied')).toBe('yes'));
    expect(writeText).toHaveBeenCalledWith(FULL);
  });
});
