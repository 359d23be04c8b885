import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** Every module of src/ with what it imports (type-only imports included), read as TypeScript does. */
function importGraph(): Map<string, { local: string[]; packages: string[] }> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.ts')) files.push(path);
    }
  };
  walk(join(ROOT, 'src'));
  const graph = new Map<string, { local: string[]; packages: string[] }>();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const local: string[] = [];
    const packages: string[] = [];
    for (const { fileName } of info.importedFiles) {
      if (fileName.startsWith('.')) local.push(relative(ROOT, resolve(dirname(file), fileName)).replace(/\.js$/, '.ts'));
      else packages.push(fileName);
    }
    graph.set(relative(ROOT, file), { local, packages });
  }
  return graph;
}

/** The modules a file imports as values: every import and re-export but `import type` / `export type`. */
function valueImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest);
  return source.statements.flatMap((node) => {
    const typeOnly = ts.isImportDeclaration(node)
      ? node.importClause?.isTypeOnly
      : ts.isExportDeclaration(node) && node.isTypeOnly;
    const from = ts.isImportDeclaration(node) || ts.isExportDeclaration(node) ? node.moduleSpecifier : undefined;
    if (typeOnly || from === undefined || !ts.isStringLiteral(from) || !from.text.startsWith('.')) return [];
    return [relative(ROOT, resolve(dirname(join(ROOT, file)), from.text)).replace(/\.js$/, '.ts')];
  });
}

/** The import cycles of a graph, each as the path that closes it. */
function cyclesOf(graph: Map<string, { local: string[] }>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node)?.local ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (state.get(next) === undefined) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (state.get(node) === undefined) visit(node);
  return cycles;
}

describe('layout (STYLE.md)', () => {
  const graph = importGraph();

  it('has no import cycle anywhere in src/, type-only imports included', () => {
    expect(cyclesOf(graph).map((cycle) => cycle.join(' -> '))).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const looped = new Map([
      ['a.ts', { local: ['b.ts'] }],
      ['b.ts', { local: ['a.ts'] }],
    ]);
    expect(cyclesOf(looped)).toEqual([['a.ts', 'b.ts', 'a.ts']]);
  });

  it('imports ky only in src/core/transport.ts', () => {
    const importers = [...graph].filter(([, deps]) => deps.packages.some((p) => p === 'ky' || p.startsWith('ky/'))).map(([file]) => file);
    expect(importers).toEqual(['src/core/transport.ts']);
  });

  it('keeps the sandbox off the SDK: src/testing/ imports src/model, check, filing, resources for types only', () => {
    const sdk = /^src\/(model|check|filing|resources)\//;
    const leaks = [...graph.keys()]
      .filter((file) => file.startsWith('src/testing/'))
      .flatMap((file) => valueImports(file).filter((target) => sdk.test(target)).map((target) => `${file} -> ${target}`));
    expect(leaks).toEqual([]);
  });

  it('imports zod with its namespace entry only, never `{ z }`', () => {
    for (const [file] of graph) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      expect(text, file).not.toMatch(/import\s*\{\s*z\s*\}\s*from\s*'zod/);
    }
  });
});
