// A small YAML writer for the JSON the API sends: block style, two-space indent, strings quoted only when needed.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const PLAIN_UNSAFE = /^[\s\-?:,[\]{}#&*!|>'"%@`~]|[:#]\s|\s#|:$|\s$|[\u0000-\u001f\u007f]/;
const LOOKS_TYPED = /^(?:null|Null|NULL|~|true|True|TRUE|false|False|FALSE|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF|y|Y|n|N|[-+]?(?:\d[\d_]*)?\.?\d+(?:[eE][-+]?\d+)?|0x[0-9a-fA-F]+|0o[0-7]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

function scalarString(value: string): string {
  if (value === '' || LOOKS_TYPED.test(value) || PLAIN_UNSAFE.test(value)) return JSON.stringify(value);
  return value;
}

function key(name: string): string {
  return scalarString(name);
}

function isBlock(value: Json): value is Json[] | { [key: string]: Json } {
  if (Array.isArray(value)) return value.length > 0;
  return typeof value === 'object' && value !== null && Object.keys(value).length > 0;
}

function scalar(value: Json, indent: string): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  if (typeof value === 'string') {
    if (value.includes('\n') && !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(value) && !/^\s/.test(value)) {
      const chomp = value.endsWith('\n') ? (value.endsWith('\n\n') ? '+' : '') : '-';
      const body = (chomp === '' ? value.slice(0, -1) : chomp === '+' ? value.slice(0, -1) : value)
        .split('\n')
        .map((line) => (line ? indent + '  ' + line : ''))
        .join('\n');
      return '|' + chomp + '\n' + body;
    }
    return scalarString(value);
  }
  return Array.isArray(value) ? '[]' : '{}';
}

function block(value: Json, indent: string): string {
  const lines: string[] = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      if (isBlock(item)) {
        const inner = block(item, indent + '  ');
        lines.push(indent + '- ' + inner.slice(indent.length + 2));
      } else {
        lines.push(indent + '- ' + scalar(item, indent));
      }
    }
  } else if (value && typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) {
      if (item === undefined) continue;
      if (isBlock(item)) {
        lines.push(indent + key(name) + ':');
        lines.push(block(item, Array.isArray(item) ? indent : indent + '  '));
      } else {
        lines.push(indent + key(name) + ': ' + scalar(item, indent));
      }
    }
  }
  return lines.join('\n');
}

/** The value as a YAML document (no leading "---"), ending in a newline. */
export function toYaml(value: unknown): string {
  const json = JSON.parse(JSON.stringify(value ?? null)) as Json;
  return (isBlock(json) ? block(json, '') : scalar(json, '')) + '\n';
}
