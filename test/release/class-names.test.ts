/**
 * The built package without `keepNames`: every exported class keeps its own name in both formats
 * (a class body that names its class would make the bundler rename it `_Class`).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const dist = join(import.meta.dirname, '../../dist');

function classes(entry: Record<string, unknown>): [string, { name: string }][] {
  return Object.entries(entry).filter(
    (pair): pair is [string, { name: string }] => typeof pair[1] === 'function' && /^class\b/.test(Function.prototype.toString.call(pair[1])),
  );
}

describe('exported class names in dist/', () => {
  it.each(['index', 'testing', 'check'])('%s: ESM and CommonJS classes carry their export name', async (entry) => {
    const esm = (await import(/* @vite-ignore */ pathToFileURL(join(dist, `${entry}.js`)).href)) as Record<string, unknown>;
    const cjs = createRequire(import.meta.url)(join(dist, `${entry}.cjs`)) as Record<string, unknown>;
    for (const build of [esm, cjs]) {
      const found = classes(build);
      if (entry === 'index') expect(found.map(([name]) => name)).toEqual(expect.arrayContaining(['InvoicingClient', 'APIError', 'NotFoundError']));
      for (const [name, value] of found) expect(value.name, name).toBe(name);
    }
  });

  it('shows the client and an error under their class names', async () => {
    const sdk = (await import(/* @vite-ignore */ pathToFileURL(join(dist, 'index.js')).href)) as typeof import('../../src/index.js');
    const client = new sdk.InvoicingClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'sk_test_0123456789abcdef' });
    expect(client.constructor.name).toBe('InvoicingClient');
    expect(client.withOptions({}).constructor.name).toBe('InvoicingClient');
    expect(new sdk.NotFoundError({ message: 'x' }).constructor.name).toBe('NotFoundError');
  });
});
