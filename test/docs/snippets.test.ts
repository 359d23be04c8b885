/**
 * Type-checks every ```ts block of README.md and docs/*.md against the built public types
 * (dist/*.d.ts, as users get them), so a guide cannot show an option, method or return shape the
 * SDK does not have. Each block is its own module; the free names a fragment leans on (a `client`
 * made in an earlier block, the caller's `input` or `order`) are declared once in PRELUDE below, with
 * the types a reader would have. A block that should not be compiled (none today) would be fenced
 * as ```ts nocheck.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

/** The guides whose snippets are compiled. */
export function guideFiles(): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(root, 'docs', f));
  return [join(root, 'README.md'), ...docs];
}

interface Snippet {
  file: string;
  /** 1-based line of the first line of code in the markdown file. */
  line: number;
  code: string;
}

/** Every ```ts (or ```typescript) block of a markdown text, with the line it starts on. */
export function extractSnippets(file: string, text: string): Snippet[] {
  const snippets: Snippet[] = [];
  const lines = text.split('\n');
  let open: { line: number; body: string[]; check: boolean } | undefined;
  for (const [i, line] of lines.entries()) {
    if (open === undefined) {
      const m = /^```(ts|typescript)\b(.*)$/.exec(line);
      if (m) open = { line: i + 2, body: [], check: !/\bnocheck\b/.test(m[2] ?? '') };
    } else if (/^```\s*$/.test(line)) {
      if (open.check) snippets.push({ file, line: open.line, code: open.body.join('\n') });
      open = undefined;
    } else {
      open.body.push(line);
    }
  }
  return snippets;
}

/**
 * Names that fragments use without defining them, typed as the surrounding prose describes them.
 * Global declarations, so a block that defines its own `client` simply shadows this one.
 */
const PRELUDE = `
declare const client: import('invoicing-sdk').InvoicingClient;
declare const admin: import('invoicing-sdk').InvoicingClient;
declare const sandbox: import('invoicing-sdk/testing').Sandbox;
declare const input: import('invoicing-sdk').InvoiceCreateParams;
declare const invoices: import('invoicing-sdk').InvoiceCreateParams[];
declare const lines: import('invoicing-sdk').InvoiceLineInput[];
declare const invoice: import('invoicing-sdk').Invoice;
declare const results: import('invoicing-sdk').FileManyResult[];
declare const orders: { number: string }[];
declare const order: { number: string };
declare const id: string;
declare const invoiceId: string;
declare const idempotencyKey: string;
declare const err: unknown;
declare const body: { message: string };
declare const flag: string;
declare const template: object;
declare const log: { warn(fields: object, message?: string): void };
declare const secretStore: { put(name: string, value: string): Promise<void> };
declare function saveSecret(secret: string): Promise<void>;
declare const yourOtherHandlers: import('msw').RequestHandler[];
declare const it: typeof import('vitest').it;
declare const expect: typeof import('vitest').expect;
declare const vi: typeof import('vitest').vi;
declare module 'undici' {
  export class ProxyAgent { constructor(options: string | { uri: string; token?: string }); }
  export class Agent { constructor(options?: { connect?: { cert?: string; key?: string; ca?: string } }); }
  export function fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
}
declare module 'pino' {
  const pino: (options?: object) => { debug(...a: unknown[]): void; info(...a: unknown[]): void; warn(...a: unknown[]): void; error(...a: unknown[]): void };
  export default pino;
}
`;

/** The code under test of docs/testing.md's vitest example (`import { fileOrder } from '../src/billing.js'`). */
const BILLING = `
import type { InvoicingClient } from 'invoicing-sdk';
export declare function fileOrder(client: InvoicingClient, order: { businessId: string; orderId: string }): Promise<void>;
`;

/** The names each entry point exports (values and types), read from its declaration file. */
function exportedNames(dts: string): string[] {
  const source = ts.createSourceFile(dts, readFileSync(dts, 'utf8'), ts.ScriptTarget.Latest);
  const names: string[] = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) names.push(element.name.text);
    }
  }
  return names;
}

/**
 * A block with no import of its own continues the page it is on, where the SDK is already
 * imported: the exports of `invoicing-sdk`, `invoicing-sdk/testing` and `invoicing-sdk/codes` that
 * it uses are imported for it. A block that imports anything must import everything it uses.
 */
function withImplicitImports(code: string): string {
  if (/^\s*import\s/m.test(code)) return code;
  const lines: string[] = [];
  const taken = new Set<string>();
  for (const entry of ['index', 'testing', 'codes']) {
    const wanted = exportedNames(join(root, 'dist', `${entry}.d.ts`)).filter(
      (name) => !taken.has(name) && new RegExp(`\\b${name}\\b`).test(code) && !new RegExp(`\\b(const|let|var|function|class|type|interface)\\s+${name}\\b`).test(code),
    );
    for (const name of wanted) taken.add(name);
    if (wanted.length > 0) lines.push(`import { ${wanted.join(', ')} } from 'invoicing-sdk${entry === 'index' ? '' : `/${entry}`}';`);
  }
  // On the block's first line, so the block's own lines keep their numbers.
  return `${lines.join(' ')}${code}`;
}

const compilerOptions: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: ['node'],
  typeRoots: [join(root, 'node_modules/@types')],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  allowImportingTsExtensions: true,
  paths: {
    'invoicing-sdk': [join(root, 'dist/index.d.ts')],
    'invoicing-sdk/testing': [join(root, 'dist/testing.d.ts')],
    'invoicing-sdk/codes': [join(root, 'dist/codes.d.ts')],
    'invoicing-sdk/check': [join(root, 'dist/check.d.ts')],
  },
};

/** Compiles the snippets in one program; returns one message per diagnostic, located in the markdown. */
export function typeCheck(snippets: Snippet[]): string[] {
  const virtual = new Map<string, string>();
  const origin = new Map<string, Snippet>();
  const preludePath = join(root, '.snippets/prelude.d.ts');
  virtual.set(preludePath, PRELUDE);
  virtual.set(join(root, '.snippets/src/billing.ts'), BILLING);
  snippets.forEach((s, i) => {
    const path = join(root, `.snippets/docs/snippet-${i}.ts`);
    // `export {}` makes every block a module, so its top-level names are its own.
    virtual.set(path, `${withImplicitImports(s.code)}\nexport {};\n`);
    origin.set(path, s);
  });
  const host = ts.createCompilerHost(compilerOptions);
  const { fileExists, readFile, getSourceFile, directoryExists } = host;
  const virtualDir = join(root, '.snippets');
  host.fileExists = (f) => virtual.has(f) || fileExists.call(host, f);
  host.directoryExists = (d) => d === virtualDir || d.startsWith(`${virtualDir}/`) || (directoryExists?.call(host, d) ?? true);
  host.readFile = (f) => virtual.get(f) ?? readFile.call(host, f);
  host.getSourceFile = (f, lang, onError, create) => {
    const text = virtual.get(f);
    return text === undefined ? getSourceFile.call(host, f, lang, onError, create) : ts.createSourceFile(f, text, lang);
  };
  const program = ts.createProgram([preludePath, ...origin.keys()], compilerOptions, host);
  const diagnostics = [...program.getSyntacticDiagnostics(), ...program.getSemanticDiagnostics(), ...program.getGlobalDiagnostics()];
  return diagnostics.map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    const snippet = d.file === undefined ? undefined : origin.get(d.file.fileName);
    if (d.file === undefined || d.start === undefined) return text;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    if (snippet === undefined) return `${relative(root, d.file.fileName)}:${line + 1}:${character + 1}: ${text}`;
    return `${relative(root, snippet.file)}:${snippet.line + line}:${character + 1}: ${text}`;
  });
}

/** Every ```ts block under an `@example` tag of a doc comment in a source file. */
export function extractJsdocExamples(file: string, text: string): Snippet[] {
  const snippets: Snippet[] = [];
  let open: { line: number; body: string[] } | undefined;
  let inExample = false;
  for (const [i, line] of text.split('\n').entries()) {
    const content = /^\s*\*( ?)(.*)$/.exec(line);
    if (open !== undefined) {
      if (content !== null && /^```\s*$/.test(content[2] ?? '')) {
        snippets.push({ file, line: open.line, code: open.body.join('\n') });
        open = undefined;
        inExample = false;
      } else {
        open.body.push(content === null ? line : (content[2] ?? ''));
      }
    } else if (/^\s*\*\s*@example\b/.test(line)) {
      inExample = true;
    } else if (inExample && content !== null && /^```(ts|typescript)\s*$/.test(content[2] ?? '')) {
      open = { line: i + 2, body: [] };
    } else if (inExample && (/\*\//.test(line) || /^\s*\*\s*@/.test(line))) {
      inExample = false;
    }
  }
  return snippets;
}

/**
 * Findings in files another change owns at the time of writing, each to be fixed there: the test
 * fails when one of them is no longer found, so the entry is removed with the fix. Matched by
 * file and message, without the line, which moves as those files are edited.
 */
const KNOWN: { file: string; message: string }[] = [];

function withoutKnown(findings: string[], snippets: Snippet[]): string[] {
  const matches = (f: string, k: (typeof KNOWN)[number]) => f.startsWith(`${k.file}:`) && (f.split('\n')[0] ?? '').endsWith(`: ${k.message}`);
  const files = new Set(snippets.map((s) => relative(root, s.file)));
  const rest = findings.filter((f) => !KNOWN.some((k) => matches(f, k)));
  const stale = KNOWN.filter((k) => files.has(k.file) && !findings.some((f) => matches(f, k)));
  return [...rest, ...stale.map((k) => `fixed, remove from KNOWN: ${k.file}: ${k.message}`)];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The guides' blocks and the public examples, compiled together once (one program is the slow part). */
function collect(): { guides: Snippet[]; examples: Snippet[]; findings: string[] } {
  const guides = guideFiles().flatMap((f) => extractSnippets(f, readFileSync(f, 'utf8')));
  // The declaration files hold the doc comments of the public API only; each example is
  // reported at its place in src/, where it is written.
  const inSource = new Map<string, Snippet>();
  for (const f of sourceFiles(join(root, 'src'))) {
    for (const s of extractJsdocExamples(f, readFileSync(f, 'utf8'))) inSource.set(s.code, s);
  }
  const seen = new Set<string>();
  const examples = readdirSync(join(root, 'dist'))
    .filter((f) => f.endsWith('.d.ts'))
    .flatMap((f) => extractJsdocExamples(join(root, 'dist', f), readFileSync(join(root, 'dist', f), 'utf8')))
    .filter((s) => !seen.has(s.code) && seen.add(s.code) !== undefined)
    .map((s) => inSource.get(s.code) ?? s);
  return { guides, examples, findings: typeCheck([...guides, ...examples]) };
}

describe('docs snippets', () => {
  let all: ReturnType<typeof collect>;
  const findingsIn = (snippets: Snippet[]) => {
    const files = new Set(snippets.map((s) => relative(root, s.file)));
    return all.findings.filter((f) => files.has(f.slice(0, f.indexOf(':'))));
  };

  beforeAll(() => {
    if (!existsSync(join(root, 'dist/index.d.ts'))) throw new Error('dist/ is missing: run `npm run build` first');
    all = collect();
  });

  it('compiles every ```ts block of README.md and docs/*.md against the built types', () => {
    expect(all.guides.length).toBeGreaterThan(20);
    expect(withoutKnown(findingsIn(all.guides), all.guides)).toEqual([]);
  });

  it('compiles the @example of every export, as users see it in dist/*.d.ts', () => {
    expect(all.examples.length).toBeGreaterThan(100);
    expect(withoutKnown(findingsIn(all.examples), all.examples)).toEqual([]);
  });

  it('reports a snippet that does not compile, at its line in the markdown', () => {
    const broken = extractSnippets(join(root, 'docs/broken.md'), [
      '# Broken', '', '```ts', "import { InvoicingClient } from 'invoicing-sdk';", 'const client = new InvoicingClient({ retries: 3 });',
      'const { invoice } = client.invoices.createAndFile(input);', '```', '',
    ].join('\n'));
    const findings = typeCheck(broken);
    expect(findings).toEqual([
      expect.stringMatching(/^docs\/broken\.md:5:.*'retries' does not exist/),
      expect.stringMatching(/^docs\/broken\.md:6:.*Property 'invoice' does not exist on type 'Promise</),
    ]);
  });
});
