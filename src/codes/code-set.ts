/** The bundled code sets: packed strings (see scripts/generate-codes.mjs), unpacked on first use, not at import. */

/**
 * Unpacks sorted codes: per heading (all but the last two digits) its step from the previous one in base 26 written
 * a-z, then per next-to-last digit a letter A-J followed by the last digits (none for a lone 0).
 */
export function unpack(packed: string, width: number, dot: string): string[] {
  const codes: string[] = [];
  let heading = 0;
  let step = -1;
  let prefix = '';
  for (let i = 0; i < packed.length; i++) {
    const c = packed.charCodeAt(i);
    if (c >= 97) {
      step = (step < 0 ? 0 : step * 26) + c - 97;
      continue;
    }
    if (step >= 0) heading += step;
    step = -1;
    if (c >= 65) {
      prefix = String(heading).padStart(width, '0') + dot + (c - 65);
      const next = packed.charCodeAt(i + 1);
      if (!(next >= 48 && next <= 57)) codes.push(`${prefix}0`);
    } else codes.push(prefix + packed[i]);
  }
  return codes;
}

/** A read-only set of codes built on first use. */
export class CodeSet implements ReadonlySet<string> {
  #load: () => string[];
  #set: Set<string> | undefined;

  constructor(load: () => string[]) {
    this.#load = load;
  }

  get #codes(): Set<string> {
    return (this.#set ??= new Set(this.#load()));
  }

  get size(): number {
    return this.#codes.size;
  }

  has(code: string): boolean {
    return this.#codes.has(code);
  }

  forEach(fn: (value: string, key: string, set: ReadonlySet<string>) => void, thisArg?: unknown): void {
    for (const code of this.#codes) fn.call(thisArg, code, code, this);
  }

  entries(): SetIterator<[string, string]> {
    return this.#codes.entries();
  }

  keys(): SetIterator<string> {
    return this.#codes.keys();
  }

  values(): SetIterator<string> {
    return this.#codes.values();
  }

  [Symbol.iterator](): SetIterator<string> {
    return this.#codes.values();
  }
}
