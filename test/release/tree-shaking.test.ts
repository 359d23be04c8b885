/**
 * A bundle that imports a few names from `invoicing-sdk` keeps only what they need. The built
 * package puts many source modules in one chunk, and a bundler drops unused code from one module
 * statement by statement: a top-level statement it cannot prove harmless (a computed class key, a
 * call not marked pure, a property assignment) keeps itself and everything it refers to. Here the
 * whole of `src/index.ts` is first bundled into a single module, the worst case of that, and then a
 * consumer of one name is bundled from it and searched for text that only other parts contain.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvoicingError, RateLimitError } from '../../src/index.js';

const root = join(import.meta.dirname, '../..');

/** Text found only in one part of the SDK. */
const MARKERS = {
  client: 'refuses to run in a browser-like runtime',
  rules: 'HSN_CODE_PADDED_ISIC',
  isicCodes: 'bB1234569C123456789',
  wait: 'waitFor needs an end',
} as const;
type Part = keyof typeof MARKERS;

let dir: string;
let sdk: string;

beforeAll(async () => {
  const cache = join(root, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  dir = mkdtempSync(join(cache, 'invoicing-tree-shaking-'));
  sdk = join(dir, 'sdk.js');
  await build({
    entryPoints: [join(root, 'src/index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    define: { __CJS_REQUIRE__: 'undefined' },
    outfile: sdk,
    logLevel: 'silent',
  });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The minified bundle of a consumer that imports `names` from the one-module SDK and logs them. */
async function bundleOf(names: string[]): Promise<string> {
  const result = await build({
    stdin: {
      contents: `import { ${names.join(', ')} } from ${JSON.stringify(sdk)};\nconsole.log(${names.join(', ')});\n`,
      resolveDir: dir,
      loader: 'js',
    },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    external: ['uuid', 'node:*'],
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

function partsIn(code: string): Part[] {
  return (Object.keys(MARKERS) as Part[]).filter((part) => code.includes(MARKERS[part]));
}

describe('bundles of part of invoicing-sdk', () => {
  it('finds every marker in a bundle that uses all of it (so the checks below can fail)', async () => {
    const code = await bundleOf(['InvoicingClient', 'checkInvoice', 'CHECK_RULES']);
    expect(partsIn(code)).toEqual(['client', 'rules', 'isicCodes', 'wait']);
  });

  it.each([
    [['InvoiceStatus', 'isAfterSubmitted'], []],
    [['isAPIError', 'isRateLimitError'], []],
    [['InvoicingError'], []],
    [['computeTotals'], []],
    [['deriveIdempotencyKey'], []],
    [['describeFailure'], []],
    [['CHECK_RULES'], ['rules']],
    [['checkInvoice'], ['rules', 'isicCodes']],
  ] as [string[], Part[]][])('%j keeps only %j', async (names, parts) => {
    expect(partsIn(await bundleOf(names))).toEqual(parts);
  });
});

describe('util.inspect of SDK errors (its method is put on the prototype by the constructor)', () => {
  it('shows the stack and the fields of toJSON(), not the raw cause', () => {
    const err = new RateLimitError({
      message: 'slow down',
      status: 429,
      retryAfter: 3,
      cause: Object.assign(new Error('socket'), { secretDetail: 'kept out' }),
    });
    const shown = inspect(err);
    expect(shown.startsWith(`RateLimitError: ${err.message}`)).toBe(true);
    expect(shown).toContain('status: 429');
    expect(shown).toContain("cause: { name: 'Error', message: 'socket' }");
    expect(shown).not.toContain('kept out');
    expect(Object.keys(err)).not.toContain(Symbol.for('nodejs.util.inspect.custom'));
    expect(Object.getOwnPropertySymbols(err)).toEqual([]);
    expect(Object.hasOwn(InvoicingError.prototype, Symbol.for('nodejs.util.inspect.custom'))).toBe(true);
  });
});
