import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as errors from '../../src/core/errors.js';
import { createLogger, type Logger } from '../../src/core/logger.js';
import { MIN_PARTIAL_LENGTH, REDACTED, Redactor, TOO_DEEP } from '../../src/core/redact.js';
import { sampleErrors } from './error-samples.js';

// 32 random characters after an 8-character type prefix, as the service's keys are.
const KEY = 'sk_live_Rq7Zx9Wv2Lp8Nd5Rt4Yb6Hc3Jm1Kf0Gs';
const BODY = KEY.slice('sk_live_'.length);
const TOKEN = 'sess_Tm2hG6fD4sA1k8Jq3Vx5Cz7Bn9Pw0';

/** Every distinct run of `min` or more characters of `secret`'s body, as a leak check. */
function leaksOf(text: string, secret: string, min = MIN_PARTIAL_LENGTH): string[] {
  const body = secret.replace(/^(?:[a-z]{1,8}[_-]){1,3}/, '');
  const found: string[] = [];
  for (let i = 0; i + min <= body.length; i += 1) if (text.includes(body.slice(i, i + min))) found.push(body.slice(i, i + min));
  return found;
}

describe('redact', () => {
  describe('Redactor.redact', () => {
    const redactor = new Redactor([KEY, TOKEN]);

    it('replaces the whole secret, with or without its type prefix', () => {
      expect(redactor.redact(`Invalid API key ${KEY}.`)).toBe(`Invalid API key ${REDACTED}.`);
      expect(redactor.redact(`Invalid API key ${BODY}.`)).toBe(`Invalid API key ${REDACTED}.`);
      expect(redactor.redact(`token=${TOKEN.slice(5)}&x=1`)).toBe(`token=${REDACTED}&x=1`);
    });

    it('replaces a partial echo of 24 of the 32 secret characters, wherever it was cut', () => {
      for (let from = 0; from + 24 <= BODY.length; from += 1) {
        const part = BODY.slice(from, from + 24);
        const out = redactor.redact(`server said "${part}" back`);
        expect(out).toBe(`server said "${REDACTED}" back`);
      }
    });

    it('replaces every run of at least MIN_PARTIAL_LENGTH characters, and keeps shorter ones', () => {
      for (let length = MIN_PARTIAL_LENGTH; length <= BODY.length; length += 1) {
        for (let from = 0; from + length <= BODY.length; from += 1) {
          expect(redactor.redact(`<${BODY.slice(from, from + length)}>`)).toBe(`<${REDACTED}>`);
        }
      }
      // Seven characters say little about the rest and are left, so ordinary words survive.
      expect(redactor.redact(`<${BODY.slice(3, 3 + MIN_PARTIAL_LENGTH - 1)}>`)).toBe(`<${BODY.slice(3, 3 + MIN_PARTIAL_LENGTH - 1)}>`);
    });

    it('replaces a key cut off part-way, with its prefix, from 8 characters on', () => {
      for (let cut = MIN_PARTIAL_LENGTH + 1; cut <= KEY.length; cut += 1) {
        expect(redactor.redact(`Invalid key ${KEY.slice(0, cut)}…" and more`)).toBe(`Invalid key ${REDACTED}…" and more`);
      }
    });

    it('keeps the type prefix alone readable: it is not secret', () => {
      expect(redactor.redact('keys look like sk_live_… and tokens like sess_…')).toBe('keys look like sk_live_… and tokens like sess_…');
    });

    it.each([5, 6, 7])('redacts a key of %i characters where it appears whole', (length) => {
      const key = 'Zq9#x7w'.slice(0, length);
      const short = new Redactor([key]);
      expect(short.redact(`key=${key};`)).toBe(`key=${REDACTED};`);
      expect(short.redact(`${key}${key}`)).toBe(REDACTED);
      expect(short.redact(`${key} and ${key}`)).toBe(`${REDACTED} and ${REDACTED}`);
      expect(short.redact(`only ${key.slice(0, -1)}!`)).toBe(`only ${key.slice(0, -1)}!`);
    });

    it.each([1, 2, 3, 4])('leaves a key of %i characters alone: too short to be a secret', (length) => {
      const key = 'Zq9#'.slice(0, length);
      expect(new Redactor([key]).redact(`key=${key};`)).toBe(`key=${key};`);
    });

    it('redacts a short key with a type prefix, and its part after the prefix from 5 characters on', () => {
      const short = new Redactor(['sk_live_ab']);
      expect(short.redact('a sk_live_ab b live_ab c ab d')).toBe(`a ${REDACTED} b ${REDACTED} c ab d`);
      expect(short.redact('prefix sk_live_ only')).toBe('prefix sk_live_ only');
    });

    it('never redacts a fragment too short to be a secret: sess_1 leaves ids and paths whole', () => {
      const session = new Redactor(['sess_1']);
      const text = 'invoice 3d4eeb92-1f2a-4478-9c1d-0e1b2c3d4e51 at /invoices/inv_1/validate';
      expect(session.redact(text)).toBe(text);
      expect(session.redact('token sess_1 refused')).toBe(`token ${REDACTED} refused`);
    });

    it('redacts several secrets at once, adjacent or overlapping, as one span each run', () => {
      expect(redactor.redact(`${KEY}${TOKEN}`)).toBe(REDACTED);
      expect(redactor.redact(`${KEY} ${TOKEN} ${BODY.slice(10)}`)).toBe(`${REDACTED} ${REDACTED} ${REDACTED}`);
      // Two partial echoes sharing characters.
      const overlapping = `${BODY.slice(0, 20)}${BODY.slice(12, 30)}`;
      expect(redactor.redact(`[${overlapping}]`)).toBe(`[${REDACTED}]`);
      // A secret that overlaps itself: every occurrence, overlapping ones included, is covered.
      const periodic = new Redactor(['abababab']);
      expect(periodic.redact('xabababababababy')).toBe(`x${REDACTED}y`);
      expect(periodic.redact('x ababab y')).toBe('x ababab y');
    });

    it('redacts both runs of a secret whose echo has one character changed between them', () => {
      const changed = new Redactor(['ABCDEFGHxIJKLMNOP']);
      expect(changed.redact('..ABCDEFGHyIJKLMNOP..')).toBe(`..${REDACTED}y${REDACTED}..`);
      expect(redactor.redact(`<${BODY.slice(0, 10)}!${BODY.slice(11)}>`)).toBe(`<${REDACTED}!${REDACTED}>`);
    });

    it('covers the secrets of one client only', () => {
      const other = new Redactor(['sk_live_OtherClientKey1234567']);
      expect(other.redact(KEY)).toBe(KEY);
      expect(redactor.redact('sk_live_OtherClientKey1234567')).toBe('sk_live_OtherClientKey1234567');
    });

    it('redacts keys added later, and keeps the 256 most recent of them', () => {
      const growing = new Redactor([KEY]);
      const keys = Array.from({ length: 300 }, (_, i) => `sk_live_created_${String(i).padStart(8, '0')}_x`);
      for (const key of keys) growing.add(key);
      expect(growing.size).toBe(1 + 256);
      expect(growing.redact(keys[299]!)).toBe(REDACTED);
      expect(growing.redact(KEY)).toBe(REDACTED);
    });

    it('still redacts Bearer and ApiKey credentials it was never given', () => {
      expect(new Redactor().redact('Authorization: Bearer abcdef.ghijkl')).toBe(`Authorization: Bearer ${REDACTED}`);
    });

    it('returns the same string when there is nothing to redact', () => {
      const text = 'x'.repeat(1000);
      expect(redactor.redact(text)).toBe(text);
    });

    it('holds its secrets where neither util.inspect nor JSON.stringify reaches', () => {
      for (const shown of [inspect(redactor, { showHidden: true, depth: Infinity }), JSON.stringify(redactor), String(redactor)]) {
        expect(leaksOf(shown, KEY)).toEqual([]);
        expect(leaksOf(shown, TOKEN)).toEqual([]);
      }
    });
  });

  describe('agreement with a brute-force reference', () => {
    /** The rules of the module doc, applied by trying every piece of every secret at every place. */
    function reference(secrets: string[], text: string): string {
      const covered = new Uint8Array(text.length);
      const mark = (piece: string): void => {
        for (let at = text.indexOf(piece); at !== -1; at = text.indexOf(piece, at + 1)) covered.fill(1, at, at + piece.length);
      };
      for (const secret of secrets) {
        const prefix = /^(?:[a-z]{1,8}[_-]){1,3}/.exec(secret)?.[0] ?? '';
        const ends: number[] = [];
        if (prefix.length < secret.length) for (let i = 0; i < prefix.length; i += 1) if ('_-'.includes(prefix[i]!)) ends.push(i + 1);
        const bodyFrom = ends.at(-1) ?? 0;
        for (const piece of [secret, ...ends.map((end) => secret.slice(end))]) if (piece.length >= 5 && piece.length < MIN_PARTIAL_LENGTH) mark(piece);
        for (let a = 0; a < secret.length; a += 1) {
          for (let b = Math.max(a + MIN_PARTIAL_LENGTH, bodyFrom + 1); b <= secret.length; b += 1) mark(secret.slice(a, b));
        }
      }
      let out = '';
      for (let i = 0; i < text.length; i += 1) {
        if (!covered[i]) out += text[i];
        else if (i === 0 || !covered[i - 1]) out += REDACTED;
      }
      return out;
    }

    it('redacts exactly what the rules say, on 3,000 random secrets and texts over a small alphabet', () => {
      let seed = 42;
      const random = (n: number): number => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return seed % n;
      };
      const word = (alphabet: string, max: number): string => Array.from({ length: 1 + random(max) }, () => alphabet[random(alphabet.length)]).join('');
      let redacted = 0;
      let mixed = 0;
      for (let round = 0; round < 3_000; round += 1) {
        const secrets = Array.from({ length: 1 + random(3) }, () => (random(2) ? `${word('sk', 3)}_${word('live', 4)}_` : '') + word('abAB1_', 20));
        // Texts built from pieces of the secrets and noise, so matches, near-misses and overlaps abound.
        const parts = Array.from({ length: 1 + random(6) }, () => {
          const secret = secrets[random(secrets.length)]!;
          const from = random(secret.length);
          return random(3) ? secret.slice(from, from + 1 + random(secret.length)) : word('abAB1_ .', 6);
        });
        const text = parts.join('');
        const expected = reference(secrets, text);
        expect(new Redactor(secrets).redact(text), JSON.stringify({ secrets, text })).toBe(expected);
        if (expected.includes(REDACTED)) redacted += 1;
        if (expected !== text && expected.replaceAll(REDACTED, '').length > 0) mixed += 1;
      }
      // The cases are not degenerate: many redact something, many keep text around what they redact.
      expect(redacted).toBeGreaterThan(600);
      expect(mixed).toBeGreaterThan(500);
    });
  });

  describe('linear time', () => {
    it('redacts a 5 MB body holding 50,000 copies of the key in one pass', () => {
      const redactor = new Redactor([KEY, TOKEN]);
      const unit = `"${KEY}",${'x'.repeat(100 - KEY.length - 3)}`;
      const text = `[${unit.repeat(50_000)}]`;
      expect(text.length).toBeGreaterThanOrEqual(5_000_000);
      const copies = text.split(KEY).length - 1;
      expect(copies).toBeGreaterThanOrEqual(50_000);
      const started = performance.now();
      const out = redactor.redact(text);
      const elapsed = performance.now() - started;
      expect(out.split(REDACTED).length - 1).toBeGreaterThanOrEqual(copies);
      expect(leaksOf(out, KEY)).toEqual([]);
      // Typically 0.2–0.5 s on a shared 2-core machine; the old registry took 5.3 s.
      expect(elapsed).toBeLessThan(4_000);
    });

    it('scales with the text, not with the copies or the secrets (4 MB about 4x 1 MB)', () => {
      const many = Array.from({ length: 64 }, (_, i) => `sk_live_${String(i).padStart(4, '0')}Rq7Zx9Wv2Lp8Nd5Rt4Yb6Hc3Jm`);
      const redactor = new Redactor(many);
      // Near-misses: long runs of a secret, each broken one character before it is 8 long.
      const unit = `${BODY.slice(0, 7)}!${BODY.slice(7, 14)}~`;
      const time = (size: number): number => {
        const text = unit.repeat(Math.ceil(size / unit.length));
        let best = Infinity;
        for (let round = 0; round < 3; round += 1) {
          const started = performance.now();
          redactor.redact(text);
          best = Math.min(best, performance.now() - started);
        }
        return best;
      };
      time(1 << 18); // warm up
      const ratio = time(1 << 22) / time(1 << 20);
      expect(ratio).toBeGreaterThan(1.5);
      expect(ratio).toBeLessThan(10); // quadratic would be ~16
    });
  });

  describe('Redactor.redactDeep', () => {
    const redactor = new Redactor([KEY]);

    it('copies plain data with every string and key scrubbed, never changing the input', () => {
      const input = { message: `bad ${KEY}`, list: [KEY, 1, null, { [KEY]: true }], n: 2 };
      const frozen = JSON.stringify(input);
      expect(redactor.redactDeep(input)).toEqual({ message: `bad ${REDACTED}`, list: [REDACTED, 1, null, { [REDACTED]: true }], n: 2 });
      expect(JSON.stringify(input)).toBe(frozen);
    });

    it('keeps __proto__ an own property, never a prototype', () => {
      const hostile = JSON.parse(`{"__proto__":{"polluted":"${KEY}"},"a":1}`) as Record<string, unknown>;
      const out = redactor.redactDeep(hostile) as Record<string, unknown>;
      expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(out.polluted).toBeUndefined();
      expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ polluted: REDACTED });
    });

    it('cuts cycles, bounds depth and survives throwing getters', () => {
      const cyclic: Record<string, unknown> = { key: KEY };
      cyclic.self = cyclic;
      expect(redactor.redactDeep(cyclic)).toEqual({ key: REDACTED, self: '[Circular]' });
      const shared = { key: KEY };
      expect(redactor.redactDeep([shared, shared])).toEqual([{ key: REDACTED }, { key: REDACTED }]);
      let deep: unknown = KEY;
      for (let i = 0; i < 10_000; i += 1) deep = [deep];
      expect(JSON.stringify(redactor.redactDeep(deep))).toContain(TOO_DEEP);
      const getter = Object.defineProperty({}, 'x', {
        enumerable: true,
        get() {
          throw new Error(KEY);
        },
      });
      expect(redactor.redactDeep({ getter })).toEqual({ getter: '[Unreadable]' });
    });
  });

  describe('Redactor.redactCause', () => {
    it('keeps name, message, code and the cause chain, scrubbed, and drops object fields', () => {
      const redactor = new Redactor([KEY]);
      const socket = Object.assign(new Error(`reset ${BODY.slice(2, 26)}`), { code: 'ECONNRESET' });
      const thrown = Object.assign(new TypeError(`fetch failed ${KEY}`, { cause: socket }), { config: { headers: { 'x-api-key': KEY } } });
      const copy = redactor.redactCause(thrown) as Error & Record<string, unknown>;
      expect(copy.name).toBe('TypeError');
      expect(copy.message).toBe(`fetch failed ${REDACTED}`);
      expect(copy.config).toBeUndefined();
      expect(copy.cause).toMatchObject({ message: `reset ${REDACTED}`, code: 'ECONNRESET' });
      expect(leaksOf(inspect(copy, { showHidden: true, depth: Infinity }), KEY)).toEqual([]);
    });
  });

  describe('errors built with a redactor', () => {
    const redactor = new Redactor([KEY, TOKEN]);
    const echoing = {
      message: `Invalid API key ${BODY}`,
      detail: `first 24: ${BODY.slice(0, 24)}`,
      headers: { 'x-api-key': KEY, authorization: `Bearer ${TOKEN}` },
    };
    const cause = new Error(`socket closed while sending ${KEY.slice(0, 20)}`);

    function renderings(error: Error): string[] {
      return [error.message, String(error), error.stack ?? '', JSON.stringify(error), JSON.stringify((error as { body?: unknown }).body ?? null), inspect(error), inspect(error, { showHidden: true, depth: Infinity })];
    }

    it('never show the key in message, body, toString, JSON.stringify or util.inspect (init and factory)', () => {
      const init = { message: `no such key ${KEY}`, status: 401, body: echoing, method: 'GET', path: `/api/v1/invoices/${BODY}`, requestId: `req-${BODY.slice(4)}`, cause, redactor };
      const built: Error[] = [
        new errors.InvoicingError(`plain ${KEY}`, { hint: `hint ${TOKEN}`, cause, redactor }),
        new errors.APIError(init),
        new errors.AuthenticationError(init),
        new errors.RateLimitError({ ...init, status: 429, retryAfter: 1 }),
        new errors.ResponseTooLargeError({ ...init, limit: 10 }),
        new errors.APIConnectionError({ message: `lost ${KEY}`, cause, redactor }),
        new errors.APIConnectionTimeoutError({ cause, redactor }),
        new errors.APIUserAbortError({ cause, redactor }),
        errors.APIError.generate({ status: 401, headers: new Headers({ 'x-request-id': KEY }), body: echoing, method: 'GET', path: '/api/v1/invoices', redactor }),
        errors.generateAPIError({ status: 500, headers: undefined, body: `upstream said ${BODY.slice(3, 30)}`, method: 'GET', path: '/x', redactor }),
      ];
      for (const error of built) {
        for (const text of renderings(error)) {
          expect(leaksOf(text, KEY), `${error.name}: ${text.slice(0, 200)}`).toEqual([]);
          expect(leaksOf(text, TOKEN), `${error.name}: ${text.slice(0, 200)}`).toEqual([]);
        }
      }
      // Nothing of the redactor hangs off the error.
      expect(Object.values(built[1]!)).not.toContain(redactor);
    });

    it.each([
      ['JSON listing the key in 50,000 messages', { message: Array.from({ length: 50_000 }, () => `invalid key ${KEY} ${'x'.repeat(45)}`) }],
      ['text holding the key 50,000 times', `invalid key ${KEY} ${'x'.repeat(45)}\n`.repeat(50_000)],
    ])('quotes a few KB of a 5 MB error body (%s), the whole body scrubbed on .body', (_label, body) => {
      expect(JSON.stringify(body).length).toBeGreaterThanOrEqual(5_000_000);
      const started = performance.now();
      const error = errors.generateAPIError({ status: 400, headers: undefined, body, method: 'POST', path: '/api/v1/invoices', redactor });
      const elapsed = performance.now() - started;
      expect(error.message.length).toBeLessThanOrEqual(5_000);
      expect(error.message).toContain(REDACTED);
      expect(leaksOf(error.message, KEY)).toEqual([]);
      const shown = JSON.stringify(error.body);
      expect(shown).not.toContain(BODY.slice(0, 16));
      expect(shown.split(REDACTED).length - 1).toBe(50_000);
      // A generous bound for a loaded machine: the figure itself is in bench/, not asserted.
      expect(elapsed).toBeLessThan(4_000);
    });

    it('redactError scrubs every error class in place, cause chain included', () => {
      const samples = sampleErrors(echoing, cause);
      expect(new Set(samples.map((e) => e.name))).toEqual(new Set(errors.ERROR_NAMES));
      // Built without a redactor (and nothing registered), they leak...
      expect(samples.some((e) => renderings(e).some((t) => leaksOf(t, KEY).length > 0))).toBe(true);
      for (const error of samples) {
        expect(errors.redactError(error, redactor)).toBe(error);
        for (const text of renderings(error)) {
          expect(leaksOf(text, KEY), `${error.name}: ${text.slice(0, 200)}`).toEqual([]);
          expect(leaksOf(text, TOKEN), `${error.name}: ${text.slice(0, 200)}`).toEqual([]);
        }
      }
    });
  });

  describe('createLogger with a redactor', () => {
    it('scrubs every line and argument of the client secrets, partial echoes included', () => {
      const lines: string[] = [];
      const sink: Logger = {
        debug: (...a: unknown[]) => lines.push(inspect(a, { depth: Infinity })),
        info: (...a: unknown[]) => lines.push(inspect(a, { depth: Infinity })),
        warn: (...a: unknown[]) => lines.push(inspect(a, { depth: Infinity })),
        error: (...a: unknown[]) => lines.push(inspect(a, { depth: Infinity })),
      };
      const log = createLogger(sink, 'debug', new Redactor([KEY, TOKEN]));
      log.debug(`→ GET /x headers ${KEY}`, { body: { message: BODY.slice(0, 24) } });
      log.info(`retrying after ${TOKEN.slice(5, 25)}`);
      log.warn('odd answer', [BODY]);
      log.error(`failed: Bearer ${TOKEN}`);
      expect(lines).toHaveLength(4);
      for (const line of lines) {
        expect(line).toContain('[invoicing-sdk]');
        expect(leaksOf(line, KEY)).toEqual([]);
        expect(leaksOf(line, TOKEN)).toEqual([]);
      }
      expect(lines[0]).toContain(REDACTED);
    });
  });
});
