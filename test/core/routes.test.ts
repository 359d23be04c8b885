import { describe, expect, it } from 'vitest';
import { API_PREFIX, ROUTES, requiredScope } from '../../src/core/routes.js';

describe('ROUTES', () => {
  it('puts every path under API_PREFIX (the fixed ones are written out as plain strings)', () => {
    const paths = [
      ROUTES.invoices,
      ROUTES.invoice('inv_1'),
      ROUTES.transition('inv_1', 'sign'),
      ROUTES.apiKeys,
      ROUTES.apiKey('key_1'),
      ROUTES.apiKeyReveal('key_1'),
      ROUTES.hsCodes,
      ROUTES.serviceCodes,
    ];
    for (const path of paths) expect(path.startsWith(`${API_PREFIX}/`), path).toBe(true);
    expect(ROUTES.invoice('inv_1')).toBe(`${ROUTES.invoices}/inv_1`);
    expect(ROUTES.apiKey('key_1')).toBe(`${ROUTES.apiKeys}/key_1`);
    expect([ROUTES.hsCodes, ROUTES.serviceCodes]).toEqual([`${API_PREFIX}/taxauth/hs-codes`, `${API_PREFIX}/taxauth/service-codes`]);
  });

  it('names the documented scope only for the three transitions', () => {
    for (const step of ['validate', 'sign', 'submit'] as const) {
      expect(requiredScope('POST', ROUTES.transition('inv_1', step))).toEqual({ scope: 'invoices:write', documented: true });
    }
    expect(requiredScope('POST', `${ROUTES.transition('inv_1', 'sign')}/x`)?.documented).toBe(false);
    expect(requiredScope('GET', ROUTES.hsCodes)).toEqual({ scope: 'taxauth:read', documented: false });
    expect(requiredScope('GET', ROUTES.invoice('inv_1'))).toEqual({ scope: 'invoices:read', documented: false });
  });
});
