// The Version tab: how the rendered bundle's plugins differ from the version profile's lock.

export type PluginDifference =
  | { plugin: string; change: 'added'; bundle: string }
  | { plugin: string; change: 'changed'; bundle: string; profile: string }
  | { plugin: string; change: 'profile-only'; profile: string };

/** Every plugin whose version is not the same in both, sorted by plugin id. */
export function pluginDifferences(
  bundle: Record<string, string> | null | undefined,
  profile: Record<string, string> | null | undefined,
): PluginDifference[] {
  const b = bundle ?? {};
  const p = profile ?? {};
  const ids = [...new Set([...Object.keys(b), ...Object.keys(p)])].sort();
  const out: PluginDifference[] = [];
  for (const plugin of ids) {
    const inBundle = Object.prototype.hasOwnProperty.call(b, plugin);
    const inProfile = Object.prototype.hasOwnProperty.call(p, plugin);
    if (inBundle && !inProfile) out.push({ plugin, change: 'added', bundle: b[plugin] });
    else if (!inBundle && inProfile) out.push({ plugin, change: 'profile-only', profile: p[plugin] });
    else if (b[plugin] !== p[plugin]) out.push({ plugin, change: 'changed', bundle: b[plugin], profile: p[plugin] });
  }
  return out;
}

export const CHANGE_LABEL: Record<PluginDifference['change'], string> = {
  added: 'added by the bundle',
  changed: 'different version',
  'profile-only': 'only in the profile',
};
