/**
 * The runtime dependency surface: exactly ky, uuid and zod, with nothing beneath them, and no
 * source file importing anything else at run time. `npm audit --omit=dev` audits this same tree
 * (docs/reliability.md has its result and how to rerun it).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { dev?: boolean; devOptional?: boolean; dependencies?: Record<string, string> }>;
};

// The stack: ky sends requests, zod describes every shape, uuid mints and derives keys.
const RUNTIME = ['ky', 'uuid', 'zod'];

/** A bare module specifier and how it is imported. */
interface BareImport {
  file: string;
  specifier: string;
  /** `import type`, `typeof import()` and the like: erased from the build. */
  typeOnly: boolean;
  /** `import('x')`: loaded only when that code runs. */
  dynamic: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** Every import of a package (not a relative path) in `file`, comments and JSDoc examples ignored. */
function bareImports(file: string): BareImport[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: BareImport[] = [];
  const add = (specifier: ts.Node | undefined, typeOnly: boolean, dynamic: boolean): void => {
    if (specifier === undefined || !ts.isStringLiteralLike(specifier) || specifier.text.startsWith('.')) return;
    out.push({ file: relative(ROOT, file), specifier: specifier.text, typeOnly, dynamic });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const allTypes =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier, allTypes, false);
    } else if (ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier, node.isTypeOnly, false);
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg)) add(arg.literal, true, false);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], false, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const imports = sourceFiles(join(ROOT, 'src')).flatMap(bareImports);
const packageOf = (specifier: string): string => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!);

describe('dependencies', () => {
  it('declares exactly ky, uuid and zod as runtime dependencies, msw as an optional peer', () => {
    expect(Object.keys(pkg.dependencies ?? {}).sort()).toEqual(RUNTIME);
    expect(Object.keys(pkg.peerDependencies ?? {})).toEqual(['msw']);
    expect(pkg.peerDependenciesMeta?.msw?.optional).toBe(true);
  });

  it('installs nothing else for production: the runtime dependencies have none of their own', () => {
    const production = Object.entries(lock.packages).filter(([path, entry]) => path !== '' && entry.dev !== true && entry.devOptional !== true);
    expect(production.map(([path]) => path).sort()).toEqual(RUNTIME.map((name) => `node_modules/${name}`));
    for (const [path, entry] of production) expect(entry.dependencies ?? {}, path).toEqual({});
  });

  it('finds the imports it checks (the scan reads real imports, not comments)', () => {
    expect(imports.some((i) => i.specifier === 'uuid' && !i.typeOnly)).toBe(true);
    expect(imports.some((i) => i.specifier === 'msw' && i.dynamic)).toBe(true);
    // JSDoc examples import 'invoicing-sdk' and 'pino'; they are not imports.
    expect(imports.some((i) => i.specifier === 'pino' || i.specifier === 'invoicing-sdk')).toBe(false);
  });

  it('imports at run time only the runtime dependencies from the library, plus Node built-ins in the CLI and sandbox', () => {
    const stray = imports
      .filter((i) => !i.typeOnly)
      .filter((i) => {
        const name = packageOf(i.specifier);
        if (RUNTIME.includes(name)) return false;
        const nodeOk = i.file.startsWith('src/cli/') || i.file.startsWith('src/testing/');
        if (i.specifier.startsWith('node:') && nodeOk) return false;
        // msw is optional: the sandbox loads it only when asked, so it must never be a static import.
        if (name === 'msw' && i.file.startsWith('src/testing/') && i.dynamic) return false;
        return true;
      })
      .map((i) => `${i.file}: ${i.dynamic ? 'import()' : 'import'} '${i.specifier}'`);
    expect(stray).toEqual([]);
  });
});
