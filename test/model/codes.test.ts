import { describe, expect, it } from 'vitest';
import { ClassificationCodeSchema, HsCodeSchema, ServiceCodeSchema } from '../../src/model/codes.js';

describe('model/codes', () => {
  it('reads HS entries from strings, numbers (trailing zero restored) and objects under any code name', () => {
    expect(HsCodeSchema.parse(' 8471.30 ')).toEqual({ code: '8471.30' });
    expect(HsCodeSchema.parse(8471.3)).toEqual({ code: '8471.30' });
    expect(HsCodeSchema.parse(101.21)).toEqual({ code: '0101.21' });
    expect(HsCodeSchema.parse({ hsnCode: '8517.13', title: 'Smartphones' })).toEqual({ code: '8517.13', description: 'Smartphones' });
  });

  it('reads ISIC entries with their leading zeros restored', () => {
    expect(ServiceCodeSchema.parse(111)).toEqual({ code: '0111' });
    expect(ServiceCodeSchema.parse({ isicCode: 6202, name: 'Computer consultancy' })).toEqual({ code: '6202', description: 'Computer consultancy' });
  });

  it('fails at the code field for an object without one, and at the root for other values', () => {
    expect(ServiceCodeSchema.safeParse({ title: 'x' }).error?.issues[0]?.path).toEqual(['code']);
    for (const value of [null, '', '  ', [], true, Number.NaN]) {
      expect(HsCodeSchema.safeParse(value).error?.issues[0]?.path, String(value)).toEqual([]);
    }
  });

  it('gives values the ClassificationCode schema accepts', () => {
    expect(ClassificationCodeSchema.parse(HsCodeSchema.parse({ code: '8471.30', label: 'x' }))).toEqual({ code: '8471.30', description: 'x' });
  });
});
