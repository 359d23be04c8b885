// The document shows neither parameters nor bodies: a listing of `{ code, description }`, `?q=` a
// code prefix or words of the description, `limit` up to 1000 so clients can cache whole tables.
import { listing, pageParams, requireApiKey, requireScope, type RouteContext, type RouteResult } from '../context.js';

type CodeEntry = { code: string; description: string };

// Loaded on the first lookup, through the public codes entry so the package ships the tables once.
let hsTable: Promise<CodeEntry[]> | undefined;
let isicTable: Promise<CodeEntry[]> | undefined;

const loadHs = (): Promise<CodeEntry[]> =>
  (hsTable ??= import('../../codes/index.js').then((m) =>
    m.hsSubheadings.map(({ code, description }) => ({ code, description })),
  ));
const loadIsic = (): Promise<CodeEntry[]> =>
  (isicTable ??= import('../../codes/index.js').then((m) =>
    m.isicClasses.map(({ code, title }) => ({ code, description: title })),
  ));

function search(table: readonly CodeEntry[], q: string | null): readonly CodeEntry[] {
  const query = (q ?? '').trim().toLowerCase();
  if (query === '') return table;
  // Digits and dots are a code prefix: descriptions quote other codes a code search must not return.
  if (/^[\d.]+$/.test(query)) return table.filter((e) => e.code.startsWith(query));
  const words = query.split(/\s+/);
  return table.filter((e) => words.every((w) => e.description.toLowerCase().includes(w)));
}

function lookup(load: () => Promise<CodeEntry[]>) {
  return async (ctx: RouteContext): Promise<RouteResult> => {
    const key = requireApiKey(ctx);
    requireScope(ctx, key, 'taxauth:read');
    const { page, limit } = pageParams(ctx, { limit: 100, maxLimit: 1000 });
    const found = search(await load(), ctx.url.searchParams.get('q'));
    return listing(ctx, found, page, limit, (e) => ({ ...e }));
  };
}

export const hsCodes = lookup(loadHs);
export const serviceCodes = lookup(loadIsic);
