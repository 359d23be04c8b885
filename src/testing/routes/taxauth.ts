/**
 * The two code lookups. The document shows neither their parameters nor their bodies; the sandbox
 * answers a listing of `{ code, description }` with `?q=` (a code prefix, or words all found in the description)
 * and `page`/`limit` (default 100, at most 1000: clients fetch whole tables to cache them).
 */
import { listing, pageParams, requireApiKey, requireScope, type RouteContext, type RouteResult } from '../context.js';

/** One code as the lookups return it. */
export interface CodeEntry {
  code: string;
  description: string;
}

// The tables are large (5,612 HS subheadings); they load on the first lookup, not at start-up.
// They come through the public `invoicing-sdk/codes` entry, not the generated files, so that the
// package ships them once: the CommonJS build of the sandbox requires ./codes.cjs for them (see
// tsup.config.ts) and the ESM build shares the codes chunk, instead of each bundling its own copy.
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
  // Digits and dots are a code prefix; anything else is words of the description (descriptions
  // quote other codes, "of heading no. 8471", which a code search must not return).
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

/** GET /api/v1/taxauth/hs-codes */
export const hsCodes = lookup(loadHs);
/** GET /api/v1/taxauth/service-codes */
export const serviceCodes = lookup(loadIsic);
