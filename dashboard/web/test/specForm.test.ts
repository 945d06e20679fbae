import { describe, expect, it } from 'vitest';
import { fieldChanged, restartChanges, setAt } from '../src/specForm';
import { toYaml } from '../src/yaml';

describe('the Spec Editor form model', () => {
  it('sets a nested field and keeps what the form does not show', () => {
    const spec = { jenkins: { env: [{ name: 'A', value: '1' }] } };
    const next = setAt(spec, ['jenkins', 'image'], 'jenkins/jenkins:2.479');
    expect(next).toEqual({ jenkins: { env: [{ name: 'A', value: '1' }], image: 'jenkins/jenkins:2.479' } });
    expect(spec).toEqual({ jenkins: { env: [{ name: 'A', value: '1' }] } });
  });

  it('removes an emptied field and the mappings it leaves empty', () => {
    const spec = { miteSpec: { resources: { limits: { memory: '256Mi' } } }, powerState: 'Running' };
    expect(setAt(spec, ['miteSpec', 'resources', 'limits', 'memory'], '')).toEqual({ powerState: 'Running' });
  });

  it('marks restart-class fields only', () => {
    const current = { versionProfileRef: { name: 'lts' } };
    const proposed = { versionProfileRef: { name: 'lts' }, miteSpec: { image: 'm:2' }, hibernation: { idleMinutes: 30 } };
    expect(restartChanges(current, proposed)).toEqual(['spec.miteSpec']);
    expect(fieldChanged(current, proposed, ['miteSpec', 'image'])).toBe(true);
    expect(fieldChanged(current, proposed, ['versionProfileRef', 'name'])).toBe(false);
  });

  it('writes the form as YAML in the order the fields were filled', () => {
    const spec = setAt(setAt({}, ['composedBundleRef', 'name'], 'b'), ['miteSpec', 'imagePullPolicy'], 'Never');
    expect(toYaml({ spec })).toBe('spec:\n  composedBundleRef:\n    name: b\n  miteSpec:\n    imagePullPolicy: Never\n');
  });
});
