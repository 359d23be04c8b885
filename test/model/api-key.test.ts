import { describe, expect, it } from 'vitest';
import { ApiKeyCreateParamsSchema, ApiKeySchema, readApiKeyRecord, type APIKeyCreateParams } from '../../src/model/api-key.js';

describe('model/api-key', () => {
  describe('ApiKeyCreateParamsSchema', () => {
    it('accepts a USER key with explicit scopes', () => {
      const params: APIKeyCreateParams = { name: 'ci', type: 'LIVE', keyableType: 'USER', scopes: ['invoices:read', 'taxauth:read'] };
      expect(ApiKeyCreateParamsSchema.parse(params)).toEqual(params);
    });

    it('accepts a scope the document does not name (sent; apiKeys.create warns)', () => {
      expect(ApiKeyCreateParamsSchema.safeParse({ name: 'ci', type: 'LIVE', keyableType: 'USER', scopes: ['*', 'reports:read'] }).success).toBe(true);
    });

    it.each([
      ['empty scopes (the service would grant every permission)', { name: 'ci', type: 'LIVE', keyableType: 'USER', scopes: [] }, ['scopes']],
      ['a BUSINESS key without businessId', { name: 'ci', type: 'LIVE', keyableType: 'BUSINESS', scopes: ['*'] }, ['businessId']],
      ['a blank name', { name: ' ', type: 'LIVE', keyableType: 'USER', scopes: ['*'] }, ['name']],
      ['an unknown keyableType', { name: 'ci', type: 'LIVE', keyableType: 'TEAM', scopes: ['*'] }, ['keyableType']],
      ['a blank scope', { name: 'ci', type: 'LIVE', keyableType: 'USER', scopes: [''] }, ['scopes', 0]],
    ])('refuses %s, naming the field', (_label, value, path) => {
      const result = ApiKeyCreateParamsSchema.safeParse(value);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => issue.path)).toContainEqual(path);
    });
  });

  describe('ApiKeySchema', () => {
    it('reads a key record through its aliases and keeps the record as raw', () => {
      const raw = { _id: 'k1', name: 'ci', type: 'LIVE', keyableType: 'USER', scopes: ['*', 3], secret: 'sk_live_1', created_at: 't', extra: 1 };
      const key = ApiKeySchema.parse(raw);
      expect(key).toEqual({
        id: 'k1',
        name: 'ci',
        type: 'LIVE',
        keyableType: 'USER',
        businessId: undefined,
        scopes: ['*'],
        key: 'sk_live_1',
        createdAt: 't',
        raw,
      });
      expect(key.raw).toBe(raw);
    });

    it('fails at the root for a record that is not an object, without quoting it', () => {
      const result = readApiKeyRecord('sk_live_secret');
      expect(result).toMatchObject({ ok: false, field: '' });
      expect(JSON.stringify(result)).not.toContain('sk_live_secret');
    });

    it('uses the fallback id when the record shows none', () => {
      expect(readApiKeyRecord({ name: 'ci' }, { fallbackId: 'k9' })).toMatchObject({ ok: true, apiKey: { id: 'k9' } });
      expect(readApiKeyRecord({ id: 7 }, { fallbackId: 'k9' })).toMatchObject({ ok: true, apiKey: { id: '7' } });
    });
  });
});
