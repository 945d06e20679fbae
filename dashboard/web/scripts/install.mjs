// `npm ci` only when node_modules was not installed from this exact package-lock.json (its hash is kept in a stamp).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const lock = createHash('sha256').update(readFileSync('package-lock.json')).digest('hex');
const stamp = 'node_modules/.varroa-package-lock.sha256';
if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === lock) {
  console.log('node_modules is current with package-lock.json: npm ci skipped');
  process.exit(0);
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const ci = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit' });
if (ci.status !== 0) {
  console.error(`npm ci failed (exit ${ci.status ?? ci.signal}): see its output above`);
  process.exit(ci.status || 1);
}
writeFileSync(stamp, lock + '\n');
