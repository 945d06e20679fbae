import { DataTable, Empty } from '../../components/common';
import { CHANGE_LABEL, pluginDifferences } from '../../pluginDiff';
import type { ControllerDetail } from '../../types';

function Value({ text }: { text: string | undefined | null }) {
  return text ? <>{text}</> : <span class="muted">unknown</span>;
}

export function VersionTab({ detail }: { detail: ControllerDetail }) {
  const running = detail.jenkinsVersion || detail.status?.miteStatus?.jenkinsVersion || '';
  const bundle = detail.bundlePlugins ?? {};
  const lock = detail.lock ?? {};
  const differences = pluginDifferences(detail.bundlePlugins, detail.lock);
  const plugins = [...new Set([...Object.keys(bundle), ...Object.keys(lock)])].sort();
  return (
    <div class="version-tab">
      <section class="card" aria-labelledby="h-jenkins">
        <h2 id="h-jenkins">Jenkins</h2>
        <dl>
          <div class="field-row">
            <dt>Running</dt>
            <dd>
              <Value text={running} />
            </dd>
          </div>
          <div class="field-row">
            <dt>Version profile</dt>
            <dd>
              <Value text={detail.versionProfile} />
            </dd>
          </div>
          <div class="field-row">
            <dt>Profile's Jenkins</dt>
            <dd>
              <Value text={detail.profileJenkinsVersion} />
              {running && detail.profileJenkinsVersion && running !== detail.profileJenkinsVersion ? (
                <span class="bad"> · differs from the running version</span>
              ) : null}
            </dd>
          </div>
        </dl>
      </section>
      <section aria-labelledby="h-diff">
        <h2 id="h-diff">What the bundle changes</h2>
        {!detail.bundlePlugins && !detail.lock ? (
          <Empty>Neither the bundle's plugins nor the profile's lock are known yet{detail.resolutionProblem ? `: ${detail.resolutionProblem}` : '.'}</Empty>
        ) : differences.length === 0 ? (
          <Empty>The bundle's plugins are exactly the profile's lock.</Empty>
        ) : (
          <DataTable label="Plugin differences" columns={['Plugin', 'Difference', 'Bundle', 'Profile lock']}>
            {differences.map((difference) => (
              <tr data-plugin={difference.plugin} data-change={difference.change} key={difference.plugin}>
                <th scope="row">
                  <code>{difference.plugin}</code>
                </th>
                <td>
                  <span class={`change change-${difference.change}`}>{CHANGE_LABEL[difference.change]}</span>
                </td>
                <td>{'bundle' in difference ? difference.bundle : <span class="muted">—</span>}</td>
                <td>{'profile' in difference ? difference.profile : <span class="muted">—</span>}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
      <section aria-labelledby="h-lock">
        <h2 id="h-lock">Plugin lock</h2>
        {plugins.length === 0 ? (
          <Empty>No plugins are locked for this controller yet.</Empty>
        ) : (
          <DataTable label="Plugin lock" columns={['Plugin', 'Bundle', 'Profile lock']}>
            {plugins.map((plugin) => (
              <tr key={plugin}>
                <th scope="row">
                  <code>{plugin}</code>
                </th>
                <td>{bundle[plugin] ?? <span class="muted">—</span>}</td>
                <td>{lock[plugin] ?? <span class="muted">—</span>}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
    </div>
  );
}
