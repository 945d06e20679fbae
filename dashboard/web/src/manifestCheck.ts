import { useEffect, useState } from 'preact/hooks';
import { postJson } from './api';

// The side-effect-free manifest check (POST /manifests/check, docs/dashboard-api.md): the BFF forwards it to the
// target cluster's operator, which checks with that cluster's ControllerClasses and ProvisioningDefaults.

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
  /** The cluster whose operator checked. */
  cluster: string;
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

/** Checks the text in the cluster a moment after the last keystroke (only the newest answer counts). */
export function useManifestCheck(
  text: string,
  current: Record<string, unknown> | null | undefined,
  cluster: string | undefined,
  delayMillis = 300,
): CheckState {
  const [state, setState] = useState<CheckState>({ text: '' });
  const currentJson = current === undefined ? undefined : JSON.stringify(current ?? {});
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      postJson<CheckResult>('/manifests/check', {
        manifest: text,
        cluster,
        current: currentJson === undefined ? undefined : JSON.parse(currentJson),
      })
        .then((result) => live && setState({ text, result }))
        .catch((error: Error) => live && setState({ text, error }));
    }, delayMillis);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text, currentJson, cluster, delayMillis]);
  return state;
}
