import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandBraces, expandGlob, isGlob, listInvoiceFiles, segmentToRegExp } from '../../src/cli/glob.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'glob-'));
  for (const f of ['a/x.json', 'a/y.ndjson', 'a/b/z.json', 'a/.hidden/h.json', 'a/node_modules/m.json', 'c/w.jsonl', 'c/n.txt', '.dot.json', 'top.json']) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), '{}');
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rel = (files: string[]) => files.map((f) => relative(dir, f).split('\\').join('/'));

describe('cli/glob', () => {
  it('tells patterns from paths', () => {
    expect(isGlob('invoices/*.json')).toBe(true);
    expect(isGlob('invoices/a.json')).toBe(false);
  });

  it('matches one segment with *, ?, classes and literal regex characters', () => {
    expect(segmentToRegExp('*.json').test('a.json')).toBe(true);
    expect(segmentToRegExp('*.json').test('.a.json')).toBe(false);
    expect(segmentToRegExp('.*.json').test('.a.json')).toBe(true);
    expect(segmentToRegExp('inv-?.json').test('inv-1.json')).toBe(true);
    expect(segmentToRegExp('[!a]*').test('abc')).toBe(false);
    expect(segmentToRegExp('a+b(1).json').test('a+b(1).json')).toBe(true);
  });

  it('expands braces, nested ones and ones holding slashes', () => {
    expect(expandBraces('a/{b,c/d}/*.json')).toEqual(['a/b/*.json', 'a/c/d/*.json']);
    expect(expandBraces('{x,y{1,2}}')).toEqual(['x', 'y1', 'y2']);
    expect(expandBraces('{only}')).toEqual(['{only}']);
    // As bash: a literal group inside a choice, the order of nested choices, a group after a literal one.
    expect(expandBraces('{x,{y}}')).toEqual(['x', '{y}']);
    expect(expandBraces('{a{1,2},b}')).toEqual(['a1', 'a2', 'b']);
    expect(expandBraces('{x}{a,b}')).toEqual(['{x}a', '{x}b']);
  });

  it('expands ** across directories, skipping dot-directories and node_modules', async () => {
    expect(rel(await expandGlob('**/*.json', dir))).toEqual(['a/b/z.json', 'a/x.json', 'top.json']);
    expect(rel(await expandGlob('a/**', dir))).toEqual(['a/b/z.json', 'a/x.json', 'a/y.ndjson']);
    expect(rel(await expandGlob(`${dir}/*/*.{json,jsonl}`, '/'))).toEqual(['a/x.json', 'c/w.jsonl']);
    expect(await expandGlob('nothing/*.json', dir)).toEqual([]);
  });

  it('lists the invoice files of a directory', async () => {
    expect(rel(await listInvoiceFiles(dir))).toEqual(['a/b/z.json', 'a/x.json', 'a/y.ndjson', 'c/w.jsonl', 'top.json']);
  });
});

describe('cli/targets', () => {
  it('takes an existing file whose name holds glob characters as that file', async () => {
    const { resolveTargets } = await import('../../src/cli/targets.js');
    writeFileSync(join(dir, 'inv[1].json'), '{}');
    writeFileSync(join(dir, 'inv1.json'), '{}');
    const unmatched: string[] = [];
    const literal = await resolveTargets(['inv[1].json'], dir, unmatched);
    expect(literal.map((t) => t.display)).toEqual(['inv[1].json']);
    // A pattern that names no file is still a pattern.
    const pattern = await resolveTargets(['inv[0-9].json'], dir, unmatched);
    expect(pattern.map((t) => t.display)).toEqual(['inv1.json']);
    expect(unmatched).toEqual([]);
  });
});
