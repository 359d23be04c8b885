#!/usr/bin/env node
// `changeset version` bumps package.json; the SDK also reports its version at run time (the
// User-Agent-style header) from src/version.ts, which must not drift. `npm run version-packages`
// runs this right after `changeset version`; test/release/version.test.ts fails if they differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const file = join(root, 'src', 'version.ts');
const source = readFileSync(file, 'utf8');
const pattern = /export const VERSION = '[^']*';/;
if (!pattern.test(source)) {
  console.error(`src/version.ts has no \`export const VERSION = '…';\` line to update`);
  process.exit(1);
}
const updated = source.replace(pattern, `export const VERSION = '${version}';`);
if (updated !== source) writeFileSync(file, updated);
console.log(`src/version.ts: VERSION = '${version}'`);
