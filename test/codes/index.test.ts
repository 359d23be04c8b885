import { describe, expect, it } from 'vitest';
import {
  HS_CODES,
  hsSubheadings,
  ISIC_CODES,
  isicClasses,
  lookupHs,
  lookupIsic,
  PADDED_ISIC_HS_CODES,
  searchCodes,
} from '../../src/codes/index.js';

describe('codes (invoicing-sdk/codes)', () => {
  it('holds the 419 ISIC Rev. 4 classes and the 5,612 HS 2022 subheadings', () => {
    expect(isicClasses).toHaveLength(419);
    expect(ISIC_CODES.size).toBe(419);
    expect(hsSubheadings).toHaveLength(5612);
    expect(HS_CODES.size).toBe(5612);
    expect(new Set(isicClasses.map((c) => c.section)).size).toBe(21);
    expect(isicClasses.every((c) => /^\d{4}$/.test(c.code) && c.division === c.code.slice(0, 2))).toBe(true);
    expect(hsSubheadings.every((h) => /^\d{4}\.\d{2}$/.test(h.code))).toBe(true);
  });

  it('unpacks HS_CODES to exactly the codes of the HS table, in order', () => {
    expect([...HS_CODES]).toEqual(hsSubheadings.map((h) => h.code));
  });

  it('reads the code sets as read-only sets: has, size, forEach, keys, values, entries', () => {
    const seen: [string, string, unknown][] = [];
    PADDED_ISIC_HS_CODES.forEach((value, key, set) => seen.push([value, key, set]));
    expect(seen).toHaveLength(15);
    expect(seen[0]).toEqual(['0510.00', '0510.00', PADDED_ISIC_HS_CODES]);
    expect([...PADDED_ISIC_HS_CODES.keys()]).toEqual([...PADDED_ISIC_HS_CODES.values()]);
    expect([...PADDED_ISIC_HS_CODES.entries()][0]).toEqual(['0510.00', '0510.00']);
    expect(new Set(ISIC_CODES).size).toBe(419);
    expect(HS_CODES.has('0101.21') && HS_CODES.has('9706.90') && !HS_CODES.has('0101.20')).toBe(true);
  });

  it('lists as padded-looking exactly the HS codes NNNN.00 whose NNNN is an ISIC class', () => {
    const expected = hsSubheadings.filter((h) => h.code.endsWith('.00') && ISIC_CODES.has(h.heading)).map((h) => h.code);
    expect([...PADDED_ISIC_HS_CODES]).toEqual(expected);
    expect(PADDED_ISIC_HS_CODES.has('7020.00')).toBe(true);
  });

  it('looks codes up by code', () => {
    expect(lookupIsic('6202')?.title).toMatch(/computer consultancy/i);
    expect(lookupIsic(' 6202 ')?.section).toBe('J');
    expect(lookupIsic('9999')).toBeUndefined();
    expect(lookupHs('8471.30')).toMatchObject({ heading: '8471', chapter: '84' });
    expect(lookupHs('847130')?.code).toBe('8471.30');
    expect(lookupHs('6202.00')).toBeUndefined();
  });

  it('finds codes by words, whole words first, and by code prefix', () => {
    expect(searchCodes('computer consultancy', { kind: 'isic' })[0]?.code).toBe('6202');
    const horses = searchCodes('horses live', { kind: 'hs', limit: 3 });
    expect(horses.length).toBeGreaterThan(0);
    expect(horses.every((h) => h.code.startsWith('0101'))).toBe(true);
    expect(searchCodes(['8471'], { kind: 'hs', limit: 8 }).map((h) => h.code.slice(0, 4))).toEqual(Array(8).fill('8471'));
    expect(searchCodes('')).toEqual([]);
    expect(searchCodes('xyzzy')).toEqual([]);
    expect(searchCodes('growing', { limit: 2 })).toHaveLength(2);
  });
});
