import { useEffect, useState } from 'preact/hooks';
import { postJson } from './api';

// The BFF's side-effect-free manifest check (POST /manifests/check, docs/dashboard-api.md).

export interface ManifestProblem {
  field: string;
  message: string;
  fix: string;
}

export interface SpecChange {
  field: string;
  class: 'restart' | 'reloadable';
  effect: string;
}

export interface CheckResult {
  valid: boolean;
  problems: ManifestProblem[];
  warnings: ManifestProblem[];
  manifest: Record<string, unknown> | null;
  changeClass?: 'restart' | 'reloadable' | 'none';
  restart?: boolean;
  changes?: SpecChange[];
}

export interface CheckState {
  /** The text the result is for: a result for older text is not shown as current. */
  text: string;
  result?: CheckResult;
  error?: Error;
}

/** Checks the text a moment after the last keystroke (only the newest answer counts). */
export function useManifestCheck(text: string, current: Record<string, unknown> | null | undefined, delayMillis = 300): CheckState {
  const [state, setState] = useState<CheckState>({ text: '' });
  const currentJson = current === undefined ? undefined : JSON.stringify(current ?? {});
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      postJson<CheckResult>('/manifests/check', {
        manifest: text,
        current: currentJson === undefined ? undefined : JSON.parse(currentJson),
      })
        .then((result) => live && setState({ text, result }))
        .catch((error: Error) => live && setState({ text, error }));
    }, delayMillis);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text, currentJson, delayMillis]);
  return state;
}
