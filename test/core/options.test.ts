import { afterEach, describe, expect, it, vi } from 'vitest';
import { isInvoicingError } from '../../src/core/errors.js';
import { CLIENT_DEFAULTS, resolveOptions } from '../../src/core/options.js';
import { DEFAULT_FIELD_MAP } from '../../src/model/field-map.js';
import { recordingLogger } from './support.js';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

function clearEnv(): void {
  for (const row of Object.values(CLIENT_DEFAULTS)) if (row.env) vi.stubEnv(row.env, '');
}

describe('core/options', () => {
  it('resolves every default from the one table', () => {
    clearEnv();
    const resolved = resolveOptions({ baseUrl: 'https://x.test' });
    expect(resolved).toMatchObject({
      apiKey: undefined,
      sessionToken: undefined,
      baseUrl: 'https://x.test',
      timeout: 30_000,
      maxRetries: 2,
      logLevel: 'warn',
      codesCacheTtl: 3_600_000,
      browser: false,
      fetch: undefined,
    });
    expect(resolved.fieldMap).toBe(DEFAULT_FIELD_MAP);
  });

  it('reads credentials, base URL and log level from the environment', () => {
    vi.stubEnv('INVOICING_API_KEY', 'env-key-123456');
    vi.stubEnv('INVOICING_SESSION_TOKEN', 'env-session-123456');
    vi.stubEnv('INVOICING_BASE_URL', 'https://env.test/');
    vi.stubEnv('INVOICING_LOG', 'DEBUG');
    expect(resolveOptions()).toMatchObject({
      apiKey: 'env-key-123456',
      sessionToken: 'env-session-123456',
      baseUrl: 'https://env.test',
      logLevel: 'debug',
    });
  });

  it('prefers explicit options over the environment', () => {
    vi.stubEnv('INVOICING_API_KEY', 'env-key-123456');
    vi.stubEnv('INVOICING_BASE_URL', 'https://env.test');
    expect(resolveOptions({ apiKey: 'given-key-123456', baseUrl: 'https://given.test', logLevel: 'off' })).toMatchObject({
      apiKey: 'given-key-123456',
      baseUrl: 'https://given.test',
      logLevel: 'off',
    });
  });

  it('fails at construction without a baseUrl, saying how to set it', () => {
    clearEnv();
    let error: unknown;
    try {
      resolveOptions({ apiKey: 'k' });
    } catch (e) {
      error = e;
    }
    expect(isInvoicingError(error)).toBe(true);
    expect((error as Error).message).toMatch(/INVOICING_BASE_URL/);
    expect((error as Error).message).toMatch(/baseUrl/);
  });

  it('keeps a path prefix and does not double /api/v1', () => {
    expect(resolveOptions({ baseUrl: 'https://gw.test/invoicing/' }).baseUrl).toBe('https://gw.test/invoicing');
    expect(resolveOptions({ baseUrl: 'https://gw.test/api/v1' }).baseUrl).toBe('https://gw.test');
    expect(resolveOptions({ baseUrl: 'https://gw.test/api/v1/' }).baseUrl).toBe('https://gw.test');
  });

  it.each([
    [{ baseUrl: 'not a url' }, /not a valid URL/],
    [{ baseUrl: 'ftp://x.test' }, /http\(s\)/],
    [{ baseUrl: 'https://u:p@x.test' }, /credentials/],
    [{ baseUrl: 'https://x.test', timeout: 0 }, /timeout/],
    [{ baseUrl: 'https://x.test', timeout: 1.5 }, /timeout/],
    [{ baseUrl: 'https://x.test', maxRetries: -1 }, /maxRetries/],
    [{ baseUrl: 'https://x.test', logLevel: 'loud' as never }, /logLevel/],
  ])('rejects invalid options %#', (options, message) => {
    expect(() => resolveOptions(options)).toThrow(message);
  });

  it.each([
    ['timeout', 3_000_000_000],
    ['timeout', 2_147_483_648],
    ['timeout', Number.POSITIVE_INFINITY],
    ['maxRetries', 3_000_000_000],
    ['maxRetries', Number.MAX_SAFE_INTEGER],
    ['maxRetries', -1],
    ['maxRetries', Number.NaN],
  ])('refuses %s: %d at construction, saying the range', (name, value) => {
    // Node clamps a timer beyond 2^31 - 1 ms to 1 ms: every request would time out at once.
    expect(() => resolveOptions({ baseUrl: 'https://x.test', [name]: value })).toThrow(
      `${name} must be an integer from ${name === 'timeout' ? 1 : 0} to 2147483647; got ${String(value)}.`,
    );
  });

  it('accepts timeout and maxRetries up to 2147483647, like the per-call options', () => {
    const resolved = resolveOptions({ baseUrl: 'https://x.test', timeout: 2_147_483_647, maxRetries: 2_147_483_647 });
    expect(resolved).toMatchObject({ timeout: 2_147_483_647, maxRetries: 2_147_483_647 });
  });

  it('accepts a codesCacheTtl beyond 2147483647 (no timer holds it)', () => {
    expect(resolveOptions({ baseUrl: 'https://x.test', codesCacheTtl: 3_000_000_000 }).codesCacheTtl).toBe(3_000_000_000);
    expect(() => resolveOptions({ baseUrl: 'https://x.test', codesCacheTtl: -1 })).toThrow(/codesCacheTtl must be an integer from 0/);
  });

  it('refuses an apiKey that cannot be sent as X-API-Key, never quoting it', () => {
    let error: unknown;
    try {
      resolveOptions({ baseUrl: 'https://x.test', apiKey: 'sk_live_ключ1234567890' });
    } catch (e) {
      error = e;
    }
    expect(isInvoicingError(error)).toBe(true);
    expect((error as Error).message).toContain('apiKey (X-API-Key) cannot be sent: ');
    expect(JSON.stringify(error)).not.toContain('1234567890');
  });

  it('refuses a sessionToken with a line break inside', () => {
    expect(() => resolveOptions({ baseUrl: 'https://x.test', sessionToken: 'sess_abc\ndef123456' })).toThrow(
      'sessionToken (Authorization) cannot be sent: ',
    );
  });

  it('ignores an invalid INVOICING_LOG with a warning', () => {
    vi.stubEnv('INVOICING_LOG', 'chatty');
    const logger = recordingLogger();
    expect(resolveOptions({ baseUrl: 'https://x.test', logger }).logLevel).toBe('warn');
    expect(logger.lines.join('\n')).toMatch(/INVOICING_LOG=chatty/);
  });

  it('merges a field map over the defaults, field by field', () => {
    const { fieldMap } = resolveOptions({ baseUrl: 'https://x.test', fieldMap: { total: 'amounts.gross', id: ['ref'] } });
    expect(fieldMap.total).toEqual(['amounts.gross']);
    expect(fieldMap.id).toEqual(['ref']);
    expect(fieldMap.status).toEqual(DEFAULT_FIELD_MAP.status);
  });

  it('refuses a browser-like runtime unless dangerouslyAllowBrowser', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    expect(() => resolveOptions({ baseUrl: 'https://x.test' })).toThrow(/browser/);
    const resolved = resolveOptions({ baseUrl: 'https://x.test', dangerouslyAllowBrowser: true });
    expect(resolved.browser).toBe(true);
  });
});
