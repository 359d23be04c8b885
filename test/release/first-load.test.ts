/**
 * A browser app that constructs the client and makes one call, bundled from dist/ with code
 * splitting: `client.diagnose()` is in a chunk that loads on first use, not in the first load (the
 * entry and what it imports statically), as bench/bundle-size.mjs measures it.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

const CONSUMER = `
import { InvoicingClient } from 'invoicing-sdk';
const client = new InvoicingClient({ baseUrl: 'https://invoicing.example.com', apiKey: 'sk_live_example', dangerouslyAllowBrowser: true });
client.invoices.retrieve('inv_123').then((invoice) => console.log(invoice.status));
`;

/** Text found only in one part of the SDK. */
const MARKERS = {
  client: 'refuses to run in a browser-like runtime',
  diagnose: 'Drift between the service and the SDK was not checked',
};

let dir: string;
let firstLoad: string;
let later: string;

beforeAll(async () => {
  // Outside the repository, so that tsconfig paths do not point the import at src/.
  dir = mkdtempSync(join(tmpdir(), 'invoicing-first-load-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(root, join(dir, 'node_modules', 'invoicing-sdk'), 'dir');
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(dir, 'consumer.mjs'), CONSUMER);
  const { metafile } = await build({
    entryPoints: [join(dir, 'consumer.mjs')],
    absWorkingDir: dir,
    bundle: true,
    minify: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    outdir: join(dir, 'out'),
    metafile: true,
    logLevel: 'silent',
  });
  const outputs = metafile.outputs;
  const first = new Set<string>();
  const visit = (path: string): void => {
    if (first.has(path)) return;
    first.add(path);
    for (const { path: next, kind } of outputs[path]!.imports) if (kind === 'import-statement') visit(next);
  };
  visit(Object.keys(outputs).find((path) => outputs[path]!.entryPoint !== undefined)!);
  const text = (paths: string[]): string => paths.map((path) => readFileSync(join(dir, path), 'utf8')).join('\n');
  const chunks = Object.keys(outputs).filter((path) => path.endsWith('.js'));
  firstLoad = text(chunks.filter((path) => first.has(path)));
  later = text(chunks.filter((path) => !first.has(path)));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('release/first-load', () => {
  it('keeps the client in the first load', () => {
    expect(firstLoad.includes(MARKERS.client)).toBe(true);
  });

  it('loads diagnose() on first use, in a chunk of its own', () => {
    expect(firstLoad.includes(MARKERS.diagnose)).toBe(false);
    expect(later.includes(MARKERS.diagnose)).toBe(true);
  });
});
