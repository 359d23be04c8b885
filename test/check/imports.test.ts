import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const checkDir = join(root, 'src/check');

/** Every .ts file below `dir`. */
function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

// Static imports and re-exports (type-only ones too: a cycle of types is still a cycle of modules
// to read), and dynamic import() calls.
const SPECIFIER = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The specifiers `source` imports (not those in comments, such as a JSDoc @example). */
function importsOf(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(SPECIFIER)].map((m) => (m[1] ?? m[2] ?? m[3]) as string);
}

/** Repository-relative path of a relative import from `file` (`./x.js` is the source file `./x.ts`). */
function resolveImport(file: string, specifier: string): string {
  return relative(root, resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
}

/** Every cycle of a directed graph, each as the list of its nodes with the first repeated at the end. */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

function checkGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of tsFiles(checkDir)) {
    const specifiers = importsOf(readFileSync(file, 'utf8'));
    graph.set(
      relative(root, file),
      specifiers.filter((s) => s.startsWith('.')).map((s) => resolveImport(file, s)),
    );
    for (const s of specifiers.filter((x) => !x.startsWith('.'))) graph.get(relative(root, file))?.push(`package:${s}`);
  }
  return graph;
}

describe('check module graph', () => {
  it('finds a cycle where there is one (the detector itself)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
    ]);
    expect(findCycles(graph)).toEqual([['a', 'b', 'c', 'a']]);
    expect(findCycles(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
    expect(importsOf("import type { X } from './x.js';\nexport { y } from '../y.js';\nimport './z.js';\n/** import { a } from 'invoicing-sdk'; */")).toEqual([
      './x.js',
      '../y.js',
      './z.js',
    ]);
  });

  it('has no import cycle in src/check', () => {
    const graph = checkGraph();
    expect(graph.size).toBeGreaterThan(10);
    expect(findCycles(graph)).toEqual([]);
  });

  it('imports nothing outside src/check but src/codes and src/model, and no package', () => {
    const outside: string[] = [];
    for (const [file, targets] of checkGraph()) {
      for (const target of targets) {
        if (!/^src\/(check|codes|model)\//.test(target)) outside.push(`${file} -> ${target}`);
      }
    }
    expect(outside).toEqual([]);
  });
});
