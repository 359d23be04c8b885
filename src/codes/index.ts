/**
 * `invoicing-sdk/codes`: offline snapshots of the two code lists the service classifies lines
 * with, generated from ../shared/data by scripts/generate-codes.mjs:
 * - the 419 ISIC Rev. 4 classes (services, `isicCode`), with titles, sections and divisions;
 * - the 5,612 HS 2022 subheadings (goods, `hsnCode`), with descriptions.
 *
 * The titles and the HS list live only behind this entry point, so the main `invoicing-sdk` bundle
 * stays small; it carries just the 419 ISIC codes its classification rule needs.
 */
import { HS_ROWS } from './hs-subheadings.js';
import { ISIC_ROWS } from './isic-classes.js';

export { HS_CODES } from './hs-codes.js';
export { ISIC_CODES, PADDED_ISIC_HS_CODES } from './isic-codes.js';

/**
 * One ISIC Rev. 4 class.
 *
 * @example
 * ```ts
 * import { lookupIsic, type IsicClass } from 'invoicing-sdk/codes';
 * const c: IsicClass | undefined = lookupIsic('6202');
 * ```
 */
export interface IsicClass {
  /** Four digits, e.g. `"6202"`. */
  code: string;
  /** English title (UN Statistics Division wording). */
  title: string;
  /** Section letter A–U. */
  section: string;
  /** Two-digit division, the first two digits of the code. */
  division: string;
}

/**
 * One HS subheading.
 *
 * @example
 * ```ts
 * import { lookupHs, type HsSubheading } from 'invoicing-sdk/codes';
 * const h: HsSubheading | undefined = lookupHs('8471.30');
 * ```
 */
export interface HsSubheading {
  /** `NNNN.NN`, e.g. `"8471.30"`. */
  code: string;
  /** English description (UN Comtrade wording). */
  description: string;
  /** The four-digit heading, e.g. `"8471"`. */
  heading: string;
  /** The two-digit chapter, e.g. `"84"`. */
  chapter: string;
}

/**
 * The 419 ISIC Rev. 4 classes, sorted by code.
 *
 * @example
 * ```ts
 * import { isicClasses } from 'invoicing-sdk/codes';
 * isicClasses.filter((c) => c.section === 'J').length;
 * ```
 */
export const isicClasses: readonly IsicClass[] = Object.freeze(
  ISIC_ROWS.map(([code, title, section, division]) => Object.freeze({ code, title, section, division })),
);

/**
 * The 5,612 HS 2022 subheadings, sorted by code.
 *
 * @example
 * ```ts
 * import { hsSubheadings } from 'invoicing-sdk/codes';
 * hsSubheadings.filter((h) => h.chapter === '84').length;
 * ```
 */
export const hsSubheadings: readonly HsSubheading[] = Object.freeze(
  HS_ROWS.map(([code, description]) =>
    Object.freeze({ code, description, heading: code.slice(0, 4), chapter: code.slice(0, 2) }),
  ),
);

const isicByCode = new Map(isicClasses.map((c) => [c.code, c]));
const hsByCode = new Map(hsSubheadings.map((h) => [h.code, h]));

/**
 * The ISIC class with this code, or undefined. Surrounding spaces are ignored.
 *
 * @example
 * ```ts
 * import { lookupIsic } from 'invoicing-sdk/codes';
 * lookupIsic('6202')?.title; // "Computer consultancy and computer facilities management activities"
 * ```
 */
export function lookupIsic(code: string): IsicClass | undefined {
  return typeof code === 'string' ? isicByCode.get(code.trim()) : undefined;
}

/**
 * The HS subheading with this code, or undefined. Accepts `NNNN.NN` or six bare digits.
 *
 * @example
 * ```ts
 * import { lookupHs } from 'invoicing-sdk/codes';
 * lookupHs('8471.30')?.description;
 * lookupHs('847130')?.code; // "8471.30"
 * ```
 */
export function lookupHs(code: string): HsSubheading | undefined {
  if (typeof code !== 'string') return undefined;
  const c = code.trim();
  if (/^\d{6}$/.test(c)) return hsByCode.get(`${c.slice(0, 4)}.${c.slice(4)}`);
  return hsByCode.get(c);
}

/**
 * Which list {@link searchCodes} looks in: `'hs'` (goods) or `'isic'` (services).
 *
 * @example
 * ```ts
 * import { searchCodes, type CodeKind } from 'invoicing-sdk/codes';
 * const kind: CodeKind = 'isic';
 * searchCodes('consultancy', { kind });
 * ```
 */
export type CodeKind = 'hs' | 'isic';

/**
 * One search hit.
 *
 * @example
 * ```ts
 * import { searchCodes, type CodeMatch } from 'invoicing-sdk/codes';
 * const hits: CodeMatch[] = searchCodes('software consultancy');
 * ```
 */
export interface CodeMatch {
  /** Which list the hit comes from. */
  kind: CodeKind;
  /** `NNNN.NN` for HS, four digits for ISIC. */
  code: string;
  /** The title or description. */
  title: string;
}

/**
 * Options of {@link searchCodes}.
 *
 * @example
 * ```ts
 * import { searchCodes, type SearchCodesOptions } from 'invoicing-sdk/codes';
 * const opts: SearchCodesOptions = { kind: 'hs', limit: 3 };
 * searchCodes('laptop', opts);
 * ```
 */
export interface SearchCodesOptions {
  /** Only one list; default both. */
  kind?: CodeKind | undefined;
  /** Most hits returned; default 10. */
  limit?: number | undefined;
}

interface Indexed {
  kind: CodeKind;
  code: string;
  title: string;
  words: string[];
}

const WORD = /[\p{L}\p{N}]+/gu;
let index: Indexed[] | undefined;

function buildIndex(): Indexed[] {
  const out: Indexed[] = [];
  for (const c of isicClasses) {
    out.push({ kind: 'isic', code: c.code, title: c.title, words: c.title.toLowerCase().match(WORD) ?? [] });
  }
  for (const h of hsSubheadings) {
    out.push({ kind: 'hs', code: h.code, title: h.description, words: h.description.toLowerCase().match(WORD) ?? [] });
  }
  return out;
}

/**
 * A small search by words over both lists, for the CLI and for humans picking a code: every query
 * word must start a word of the title (or start the code). Code matches come first, then hits with
 * more whole-word matches, then shorter titles.
 *
 * @example
 * ```ts
 * import { searchCodes } from 'invoicing-sdk/codes';
 * searchCodes('computer consultancy', { kind: 'isic' })[0]?.code; // "6202"
 * searchCodes('laptop', { kind: 'hs', limit: 3 });
 * ```
 */
export function searchCodes(words: string | readonly string[], opts: SearchCodesOptions = {}): CodeMatch[] {
  const text = typeof words === 'string' ? words : words.join(' ');
  const query = text.toLowerCase().match(WORD) ?? [];
  const limit = opts.limit ?? 10;
  if (query.length === 0 || limit <= 0) return [];
  index ??= buildIndex();
  const hits: { entry: Indexed; exact: number }[] = [];
  for (const entry of index) {
    if (opts.kind !== undefined && entry.kind !== opts.kind) continue;
    let exact = 0;
    let all = true;
    for (const q of query) {
      if (entry.code.startsWith(q) || entry.code.replace('.', '').startsWith(q)) {
        // A code typed in is the strongest signal: rank it above titles that merely mention it.
        exact += 2;
        continue;
      }
      let found = false;
      let whole = false;
      for (const w of entry.words) {
        if (w.startsWith(q)) {
          found = true;
          if (w.length === q.length) {
            whole = true;
            break;
          }
        }
      }
      if (whole) exact++;
      if (!found) {
        all = false;
        break;
      }
    }
    if (all) hits.push({ entry, exact });
  }
  hits.sort(
    (a, b) =>
      b.exact - a.exact ||
      a.entry.title.length - b.entry.title.length ||
      (a.entry.code < b.entry.code ? -1 : a.entry.code > b.entry.code ? 1 : 0),
  );
  return hits.slice(0, limit).map(({ entry }) => ({ kind: entry.kind, code: entry.code, title: entry.title }));
}
