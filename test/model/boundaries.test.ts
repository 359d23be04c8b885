/**
 * model/ and check/ run where there is no network (a CI job, a browser form): they never import the
 * transport, the resources, filing or the sandbox, and model/ imports nothing but zod/mini
 * (classic zod does not tree-shake) and itself.
 * Imports are read with TypeScript's own pre-processor, so comments and JSDoc examples do not count
 * and dynamic `import()` does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FORBIDDEN = ['core', 'resources', 'filing', 'testing'];

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** Every module `source` (the text of `file`, relative to the root) imports: a package name, or a path relative to the root. */
function importsOf(file: string, source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map(({ fileName }) =>
    fileName.startsWith('.') ? relative(root, resolve(root, dirname(file), fileName)).split(sep).join('/') : fileName,
  );
}

/** The imports of `file` that break the boundary of its folder. */
function violations(file: string, source: string): string[] {
  const inModel = file.startsWith(`src${sep}model${sep}`) || file.startsWith('src/model/');
  return importsOf(file, source).filter((target) => {
    if (FORBIDDEN.some((folder) => target.startsWith(`src/${folder}/`))) return true;
    if (inModel) return target !== 'zod/mini' && !target.startsWith('src/model/');
    return false;
  });
}

describe('model/boundaries', () => {
  it.each([...sourcesUnder('src/model'), ...sourcesUnder('src/check')])('%s imports nothing from core/, resources/, filing/ or testing/', (file) => {
    expect(violations(file, readFileSync(join(root, file), 'utf8'))).toEqual([]);
  });

  it('no module in src/ imports classic zod, which does not tree-shake', () => {
    const classic = sourcesUnder('src').filter((file) => importsOf(file, readFileSync(join(root, file), 'utf8')).includes('zod'));
    expect(classic).toEqual([]);
  });

  it('finds the files it guards', () => {
    expect(sourcesUnder('src/model')).toContain(join('src', 'model', 'money.ts'));
    expect(sourcesUnder('src/check').length).toBeGreaterThan(5);
  });

  it('catches a forbidden import, static or dynamic, and ignores one written in a comment', () => {
    const file = join('src', 'model', 'example.ts');
    expect(violations(file, "import { send } from '../core/transport.js';")).toEqual(['src/core/transport.js']);
    expect(violations(file, "const m = await import('../resources/invoices.js');")).toEqual(['src/resources/invoices.js']);
    expect(violations(file, "import ky from 'ky';")).toEqual(['ky']);
    expect(violations(file, "import * as z from 'zod/mini';\nimport { x } from './decimal.js';")).toEqual([]);
    expect(violations(file, "import * as z from 'zod';")).toEqual(['zod']);
    expect(violations(file, "/** @example\n * import { InvoicingClient } from 'invoicing-sdk';\n */\nexport const a = 1;")).toEqual([]);
    expect(violations(join('src', 'check', 'rules', 'x.ts'), "import { f } from '../../filing/file.js';")).toEqual(['src/filing/file.js']);
    expect(violations(join('src', 'check', 'x.ts'), "import { m } from '../model/money.js';")).toEqual([]);
  });
});
