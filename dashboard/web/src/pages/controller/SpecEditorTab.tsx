import { useEffect, useMemo, useState } from 'preact/hooks';
import { CheckReport, ManifestActions } from '../../components/ManifestOutput';
import { SpecForm } from '../../components/SpecForm';
import { Tabs } from '../../components/Tabs';
import { useManifestCheck } from '../../manifestCheck';
import { BUNDLE_GROUP, SETTINGS_GROUPS, controllerManifest, restartChanges, type Spec } from '../../specForm';
import type { ControllerDetail } from '../../types';
import { toYaml } from '../../yaml';

const EDITOR_TABS = [
  { id: 'form', label: 'Form' },
  { id: 'yaml', label: 'YAML' },
];

/**
 * The Spec Editor: a Form tab and a YAML tab over one manifest, kept in sync both ways. A form edit rewrites the YAML at
 * once; a YAML edit reaches the form when the BFF has parsed and checked it. Restart-class changes are marked before
 * anyone commits them. Nothing is applied from here.
 */
export function SpecEditorTab({ detail, cluster }: { detail: ControllerDetail; cluster: string }) {
  const current = (detail.spec ?? {}) as Spec;
  const initial = useMemo(
    () => controllerManifest(detail.namespace, detail.name, current, detail.labels),
    // the editor starts from the spec once; later polls change only what it compares against
    [detail.cluster, detail.namespace, detail.name],
  );
  const [tab, setTab] = useState('form');
  const [spec, setSpec] = useState<Spec>(initial.spec);
  const [text, setText] = useState(() => toYaml(initial));
  const check = useManifestCheck(text, current, cluster);

  // A YAML edit that parses reaches the form once the BFF has answered for exactly that text.
  useEffect(() => {
    const parsed = check.result?.manifest;
    if (check.text !== text || !parsed || typeof parsed !== 'object') return;
    const parsedSpec = (parsed as { spec?: unknown }).spec;
    if (parsedSpec && typeof parsedSpec === 'object' && !Array.isArray(parsedSpec)) {
      setSpec((previous) => (JSON.stringify(previous) === JSON.stringify(parsedSpec) ? previous : (parsedSpec as Spec)));
    }
  }, [check, text]);

  const fromForm = (next: Spec) => {
    setSpec(next);
    setText(toYaml(controllerManifest(detail.namespace, detail.name, next, detail.labels)));
  };
  const reset = () => {
    setSpec(current);
    setText(toYaml(controllerManifest(detail.namespace, detail.name, current, detail.labels)));
  };
  const localRestart = restartChanges(current, spec);

  return (
    <section aria-labelledby="h-spec-editor" class="spec-editor">
      <h2 id="h-spec-editor">Spec Editor</h2>
      <p class="muted">
        Edit the spec, then copy or download the manifest and commit it to the bundle repository: the dashboard applies
        nothing. Fields marked ↻ roll the pod when changed.
      </p>
      <CheckReport state={check} text={text} localRestart={localRestart} />
      <Tabs label="Spec Editor" tabs={EDITOR_TABS} selected={tab} onSelect={setTab}>
        {tab === 'form' ? (
          <SpecForm groups={[BUNDLE_GROUP, ...SETTINGS_GROUPS]} spec={spec} current={current} onChange={fromForm} />
        ) : (
          <textarea
            class="yaml-editor"
            aria-label="Controller manifest YAML"
            spellcheck={false}
            value={text}
            rows={Math.max(16, text.split('\n').length + 2)}
            onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
          />
        )}
      </Tabs>
      <div class="button-row">
        <button type="button" class="button secondary" onClick={reset}>
          Start over from the spec in force
        </button>
      </div>
      <ManifestActions text={text} namespace={detail.namespace} name={detail.name} cluster={cluster} summary="edit spec" />
    </section>
  );
}
