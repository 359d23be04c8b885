import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/core/redact.js';
import { scrubbed } from '../../src/core/resource.js';

const KEY = 'sk_live_SECRETKEY_0123456789abcdef';
const redactor = new Redactor([KEY, 'sess_SECRETTOKEN_fedcba9876543210']);

describe('core/resource scrubbed', () => {
  it('returns the record itself when it holds no secret', () => {
    const record = { id: 'inv_1', lines: [{ description: 'x', n: 1 }], nested: { a: null } };
    expect(scrubbed(redactor, record)).toBe(record);
  });

  it.each([
    ['a value', { id: 'inv_1', note: `key ${KEY}` }],
    ['part of the key in a nested array', { id: 'inv_1', deep: [[{ by: KEY.slice(8, 30) }]] }],
    ['an object key', { id: 'inv_1', [KEY]: true }],
    ['a Bearer credential', { id: 'inv_1', auth: 'Bearer abcdef123456' }],
  ])('gives redactDeep’s copy when %s holds a secret', (_label, record) => {
    const out = scrubbed(redactor, record);
    expect(out).not.toBe(record);
    expect(out).toEqual(redactor.redactDeep(record));
    expect(JSON.stringify(out)).not.toContain(KEY.slice(8, 24));
  });

  it('leaves a record nested past 64 levels to redactDeep', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 70; i++) deep = { a: deep };
    expect(scrubbed(redactor, { id: 'inv_1', deep })).toEqual(redactor.redactDeep({ id: 'inv_1', deep }));
  });

  it('reads every JSON record as redactDeep does (property)', () => {
    const withSecrets = fc.oneof(fc.string(), fc.constantFrom(KEY, `x${KEY.slice(3)}y`, KEY.slice(10, 28), 'ApiKey 1234567890'));
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, withSecrets, fc.integer(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
      array: fc.array(tie('value'), { maxLength: 4 }),
      object: fc.dictionary(withSecrets, tie('value'), { maxKeys: 4 }),
    }));
    fc.assert(
      fc.property(json.object, (record) => {
        expect(scrubbed(redactor, record)).toEqual(redactor.redactDeep(record));
      }),
      { numRuns: 2000 },
    );
  });
});
