import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const DIST = new URL('../../dist/', import.meta.url).pathname;

/** Member and property names declared in a .d.ts text that start with `_` (internal by convention). */
function underscoreMembers(dts: string): string[] {
  const found = new Set<string>();
  for (const match of dts.matchAll(/^\s+(?:(?:readonly|protected|public|static|get|set|abstract)\s+)*(_[A-Za-z]\w*)\??\s*[(:<]/gm)) {
    found.add(match[1]!);
  }
  return [...found];
}

describe('release/declarations', () => {
  const files = readdirSync(DIST).filter((f) => f.endsWith('.d.ts') || f.endsWith('.d.cts'));

  it('ships declarations for every entry point', () => {
    for (const entry of ['index', 'testing', 'codes', 'check']) {
      expect(files).toContain(`${entry}.d.ts`);
      expect(files).toContain(`${entry}.d.cts`);
    }
  });

  it('shows users no `_`-prefixed member: @internal members are stripped from the .d.ts', () => {
    const leaks = files.flatMap((f) => underscoreMembers(readFileSync(join(DIST, f), 'utf8')).map((name) => `${f}: ${name}`));
    expect(leaks).toEqual([]);
  });

  it('finds a `_`-prefixed member when there is one', () => {
    expect(underscoreMembers('declare class A {\n    protected get _ctx(): X;\n    _transition(id: string): void;\n    id: string;\n}')).toEqual([
      '_ctx',
      '_transition',
    ]);
  });
});
