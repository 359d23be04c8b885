/** Entries of the two classification lookups, whose bodies the service does not publish. */
import * as z from 'zod/mini';
import { isObject, readAlias } from './field-map.js';
import { lazySchema } from './lazy.js';

/**
 * One classification code as the SDK returns it.
 * @example
 * ```ts
 * ClassificationCodeSchema.parse({ code: '6202', description: 'IT' });
 * ```
 */
export const ClassificationCodeSchema = /* @__PURE__ */ lazySchema(() => z.object({
  /** The code as the service spells it. */ code: z.string().check(z.minLength(1)),
  /** Its title, where the service gives one. */ description: z.optional(z.string()),
}));

/**
 * An HS subheading (`8471.30`) or an ISIC Rev. 4 class.
 * @example
 * ```ts
 * const c: ClassificationCode = { code: '6202', description: 'IT' };
 * ```
 */
export type ClassificationCode = z.infer<typeof ClassificationCodeSchema>;

const CODE_ENTRY_FIELDS = {
  code: ['code', 'hsCode', 'hsnCode', 'isicCode'],
  description: ['description', 'title', 'name', 'label'],
} as const;

function firstText(record: Record<string, unknown>, fields: readonly string[]): string | undefined {
  for (const field of fields) {
    const value = record[field];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return undefined;
}

function readEntry(item: unknown, fromNumber: (n: number) => string): ClassificationCode | undefined {
  if (typeof item === 'string') return item.trim() === '' ? undefined : { code: item.trim() };
  if (typeof item === 'number') return Number.isFinite(item) ? { code: fromNumber(item) } : undefined;
  if (!isObject(item)) return undefined;
  const rawCode = readAlias(item, CODE_ENTRY_FIELDS.code);
  const code = typeof rawCode === 'number' && Number.isFinite(rawCode) ? fromNumber(rawCode) : firstText(item, CODE_ENTRY_FIELDS.code);
  if (code === undefined) return undefined;
  const description = firstText(item, CODE_ENTRY_FIELDS.description);
  return description === undefined ? { code } : { code, description };
}

const entrySchema = (fromNumber: (n: number) => string) => z.pipe(z.unknown(), z.transform((item: unknown, ctx): ClassificationCode => {
  const entry = readEntry(item, fromNumber);
  if (entry !== undefined) return entry;
  ctx.issues.push({
    code: 'custom',
    // The entry itself when it is not an object; its code field when an object carries none.
    path: isObject(item) ? ['code'] : [],
    input: item,
    message: `No readable code: expected a string, a number, or an object with one of ${CODE_ENTRY_FIELDS.code.join(', ')}`,
  });
  return z.NEVER;
}));

/**
 * One entry of the HS lookup read into a {@link ClassificationCode}; a number gets its two decimals back.
 * @example
 * ```ts
 * HsCodeSchema.parse({ hsCode: 8471.3, title: 'Laptops' }); // { code: '8471.30', description: 'Laptops' }
 * ```
 */
export const HsCodeSchema = /* @__PURE__ */ lazySchema(() => entrySchema((n) => n.toFixed(2).padStart(7, '0')));

/**
 * One entry of the ISIC service-code lookup read into a {@link ClassificationCode}; a number gets its leading zeros back.
 * @example
 * ```ts
 * ServiceCodeSchema.parse(111); // { code: '0111' }
 * ```
 */
export const ServiceCodeSchema = /* @__PURE__ */ lazySchema(() => entrySchema((n) => String(n).padStart(4, '0')));
