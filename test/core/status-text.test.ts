import { describe, expect, it } from 'vitest';
import { generateAPIError } from '../../src/core/errors.js';
import { statusText } from '../../src/core/error-hints.js';
import { reasonPhrase } from '../../src/testing/errors.js';

describe('core/status-text', () => {
  it('gives the reason phrase of a known status', () => {
    expect(statusText(404)).toBe('Not Found');
    expect(statusText(413)).toBe('Payload Too Large');
    expect(statusText(429)).toBe('Too Many Requests');
  });

  it('gives undefined for a status outside the table, so callers choose the fallback', () => {
    expect(statusText(418)).toBeUndefined();
  });

  it('is the one table behind both the error factory and the sandbox bodies', () => {
    for (const status of [400, 401, 403, 404, 408, 409, 413, 415, 422, 429, 500, 502, 503, 504]) {
      const err = generateAPIError({ status, headers: undefined, body: undefined, method: 'GET', path: '/x' });
      expect(err.message).toBe(`${status} ${statusText(status)}`);
      expect(reasonPhrase(status)).toBe(statusText(status));
    }
  });
});
