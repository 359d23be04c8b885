/**
 * Vitest global setup: builds dist/ once before the suite when it is missing or older than src/, so
 * `npm test` on a fresh clone needs no manual build (the docs and release tests read dist/*.d.ts).
 * An up-to-date dist/ (CI builds just before testing) is left alone.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUTPUTS = ['dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/testing.d.ts', 'dist/codes.d.ts', 'dist/check.d.ts', 'dist/cli/bin.js'];
const INPUTS = ['src', 'package.json', 'tsup.config.ts'];

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

export default function setup() {
  const built = OUTPUTS.map((file) => join(root, file));
  const fresh =
    built.every((file) => existsSync(file)) &&
    Math.min(...built.map((file) => statSync(file).mtimeMs)) >= Math.max(...INPUTS.map((input) => newest(join(root, input))));
  if (fresh) return;
  console.log('dist/ is missing or older than src/: npm run build');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}
