import { describe, expect, it } from 'vitest';
import { storedObject } from '../src/pages/controller/YamlTab';
import type { ControllerDetail } from '../src/types';
import { toYaml } from '../src/yaml';
import { row } from './fixtures';

describe('YAML', () => {
  it('writes nested maps and lists in block style', () => {
    expect(
      toYaml({ spec: { replicas: 1, powerState: 'Running', tags: ['a', 'b'], env: [{ name: 'X', value: 'z' }] }, empty: {}, none: [] }),
    ).toBe(
      [
        'spec:',
        '  replicas: 1',
        '  powerState: Running',
        '  tags:',
        '  - a',
        '  - b',
        '  env:',
        '  - name: X',
        '    value: z',
        'empty: {}',
        'none: []',
        '',
      ].join('\n'),
    );
  });

  it('quotes strings that would read as another type or break the syntax', () => {
    expect(toYaml({ a: 'true', b: '1.5', c: '', d: 'key: value', e: '#x', f: null, g: false, h: 'plain text' })).toBe(
      'a: "true"\nb: "1.5"\nc: ""\nd: "key: value"\ne: "#x"\nf: null\ng: false\nh: plain text\n',
    );
  });

  it('keeps multi-line text as a literal block', () => {
    expect(toYaml({ casc: 'jenkins:\n  systemMessage: hi\n' })).toBe('casc: |\n  jenkins:\n    systemMessage: hi\n');
    expect(toYaml({ m: 'one\ntwo' })).toBe('m: |-\n  one\n  two\n');
  });

  it('renders the Controller as stored: apiVersion, kind, metadata, spec, status', () => {
    const detail = {
      ...row('orders', { labels: { team: 'shop' } }),
      generation: 3,
      spec: { composedBundleRef: { name: 'orders-ci' } },
      status: { phase: 'Connected', conditions: [{ type: 'Ready', status: 'True' }] },
    } as unknown as ControllerDetail;
    const text = toYaml(storedObject(detail));
    expect(text.startsWith('apiVersion: varroa.dev/v1alpha1\nkind: Controller\nmetadata:\n  name: orders\n  namespace: ci\n')).toBe(true);
    expect(text).toContain('  labels:\n    team: shop\n');
    expect(text).toContain('spec:\n  composedBundleRef:\n    name: orders-ci\n');
    expect(text).toContain('status:\n  phase: Connected\n  conditions:\n  - type: Ready\n    status: "True"\n');
  });
});
