/**
 * Runs every code block of docs/testing.md against the built package (dist/), as a reader would:
 * the vitest suite as a vitest suite (fake timers and all), the node:test file with `node --test`,
 * and each fragment on its own, given the names the page's prose supplies (`sandbox`, `input`,
 * `id`). snippets.test.ts type-checks the same blocks; this shows that they do what they say.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const page = 'docs/testing.md';

interface Block {
  line: number;
  lang: string;
  code: string;
}

function blocksOf(text: string): Block[] {
  const blocks: Block[] = [];
  let open: { line: number; lang: string; body: string[] } | undefined;
  for (const [i, line] of text.split('\n').entries()) {
    if (open === undefined) {
      const m = /^```(\w+)/.exec(line);
      if (m) open = { line: i + 2, lang: m[1] ?? '', body: [] };
    } else if (/^```\s*$/.test(line)) {
      blocks.push({ line: open.line, lang: open.lang, code: open.body.join('\n') });
      open = undefined;
    } else {
      open.body.push(line);
    }
  }
  return blocks;
}

const dist = (entry: string): string => JSON.stringify(pathToFileURL(join(root, 'dist', `${entry}.js`)).href);

/** The page's imports of the package, pointed at dist/. */
const toDist = (code: string): string =>
  code.replaceAll("'invoicing-sdk/testing'", dist('testing')).replaceAll("'invoicing-sdk'", dist('index'));

/** "Your invoice", as the page calls it: one the service accepts. */
const INPUT = `{
  businessId: 'biz_of_your_system',
  buyer: { type: 'B2B', tin: '20456789-0001', name: 'Buyer Ltd' },
  dueDate: '2026-12-31T00:00:00Z',
  lines: [
    { description: 'Laptop', quantity: 2, unitPrice: 850.5, taxRate: 7.5, hsnCode: '8471.30' },
    { description: 'Setup', quantity: 3, unitPrice: 45, taxRate: 7.5, isicCode: '6201' },
  ],
}`;

/** The code under test that the vitest suite imports (`../src/billing.js`). */
const BILLING = `
import type { InvoicingClient } from ${dist('index')};
export async function fileOrder(client: InvoicingClient, order: { businessId: string; orderId: string }): Promise<void> {
  await client.invoices.createAndFile({ ...${INPUT}, businessId: order.businessId }, { externalRef: order.orderId });
}
`;

const blocks = blocksOf(readFileSync(join(root, page), 'utf8'));
const importsVitest = (b: Block) => /from 'vitest'/.test(b.code);
const continuesSuite = (b: Block) => !/^import\s/m.test(b.code) && /^it\(/m.test(b.code);
const isNodeTest = (b: Block) => /from 'node:test'/.test(b.code);

const work = join(root, '.tmp');
mkdirSync(work, { recursive: true });
const dir = mkdtempSync(join(work, 'testing-guide-'));
mkdirSync(join(dir, 'src'));
mkdirSync(join(dir, 'test'));
writeFileSync(join(dir, 'src/billing.ts'), BILLING);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A fragment as a module exporting `run()`: its imports hoisted, the package's names imported for
 * it when it imports none (the page is read top to bottom), and the names the prose supplies
 * declared around it. Every sandbox it starts is closed afterwards; the environment is restored.
 */
function fragmentModule(b: Block): string {
  const lines = b.code.split('\n');
  const imports = lines.filter((l) => /^import\s/.test(l));
  // `expression; // 'value'` states a value: it is asserted.
  const body = lines
    .filter((l) => !/^import\s/.test(l))
    .map((l) => l.replace(/^(\s*)([^=;]+);\s*\/\/ ('[^']*')$/, (_, pad: string, expr: string, value: string) =>
      `${pad}if (${expr} !== ${value}) throw new Error(\`${page}:${b.line}: ${expr.replaceAll('`', '')} is \${String(${expr})}, the page says ${value}\`);`))
    .join('\n');
  const own = imports.join('\n');
  const implicit = /\bInvoicingClient\b.*from 'invoicing-sdk'/.test(own) ? '' : `import { InvoicingClient } from ${dist('index')};`;
  return `${toDist(own.replace(/import \{ createSandbox \} from 'invoicing-sdk\/testing';/, ''))}
${implicit}
import { createSandbox as startSandbox } from ${dist('testing')};
type Options = Parameters<typeof startSandbox>[0];
const started: Awaited<ReturnType<typeof startSandbox>>[] = [];
const createSandbox = async (options?: Options) => {
  const s = await startSandbox(options);
  started.push(s);
  return s;
};
export async function run(): Promise<void> {
  const env = { ...process.env };
  const sandbox = await createSandbox({ listen: false });
  const input = { ...${INPUT}, businessId: sandbox.businessId };
  const yourOtherHandlers: never[] = [];
  const { id } = await sandbox.client().invoices.create(input);
  const invoiceId = id;
  void [sandbox, input, yourOtherHandlers, id, invoiceId, InvoicingClient];
  try {
${body}
  } finally {
    for (const s of started) await s.close();
    for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
    Object.assign(process.env, env);
  }
}
`;
}

describe(`${page} (every code block runs)`, () => {
  it('finds the blocks: a vitest suite, a node:test file and the fragments', () => {
    expect(blocks.filter(importsVitest)).toHaveLength(1);
    expect(blocks.filter(continuesSuite).length).toBeGreaterThan(0);
    expect(blocks.filter(isNodeTest)).toHaveLength(1);
    expect(blocks.every((b) => b.lang === 'ts' || b.lang === 'js')).toBe(true);
    expect(blocks.length).toBeGreaterThan(10);
  });

  it('fails on a block that does not do what it says', async () => {
    const run = async (name: string, code: string) => {
      const file = join(dir, `${name}.ts`);
      writeFileSync(file, fragmentModule({ line: 0, lang: 'ts', code }));
      return ((await import(/* @vite-ignore */ pathToFileURL(file).href)) as { run(): Promise<void> }).run();
    };
    await expect(run('throws', "sandbox.setScenario('inv_missing', 'offline');")).rejects.toThrow('No sandbox invoice inv_missing');
    await expect(run('says', "sandbox.invoices.get(id)?.status; // 'Accepted'")).rejects.toThrow(
      "sandbox.invoices.get(id)?.status is draft, the page says 'Accepted'",
    );
    await expect(run('holds', "sandbox.invoices.get(id)?.status; // 'draft'")).resolves.toBeUndefined();
  });

  // The suite and the `it` blocks that continue it, as one test file, collected here.
  const suite = blocks.filter((b) => importsVitest(b) || continuesSuite(b));
  describe(`the vitest suite (${page}:${suite.map((b) => b.line).join(', ')})`, async () => {
    const file = join(dir, 'test/guide.ts');
    const code = [`const input = ${INPUT};`, ...suite.map((b) => b.code)].join('\n');
    // Imports are hoisted: the suite's own stay valid below the `input` line.
    writeFileSync(file, toDist(code));
    await import(/* @vite-ignore */ pathToFileURL(file).href);
  });

  for (const b of blocks.filter((x) => !importsVitest(x) && !continuesSuite(x) && !isNodeTest(x))) {
    it(`runs the block at ${page}:${b.line}`, async () => {
      const file = join(dir, `block-${b.line}.ts`);
      writeFileSync(file, fragmentModule(b));
      const mod = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as { run(): Promise<void> };
      await mod.run();
    });
  }

  for (const b of blocks.filter(isNodeTest)) {
    it(`runs the node:test file at ${page}:${b.line} with node --test`, async () => {
      const file = join(dir, `node-test-${b.line}.mjs`);
      writeFileSync(file, `const input = ${INPUT};\n${toDist(b.code)}\n`);
      const { stdout } = await promisify(execFile)(process.execPath, ['--test', '--test-reporter=tap', file], { cwd: dir });
      expect(stdout).toMatch(/^# pass [1-9]/m);
      expect(stdout).toMatch(/^# fail 0$/m);
    }, 30_000);
  }
});
