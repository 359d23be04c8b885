import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECK_RULES } from '../../src/check/index.js';

describe('docs/checks.md', () => {
  it('lists every rule code with its severity', () => {
    const doc = readFileSync(join(import.meta.dirname, '../../docs/checks.md'), 'utf8');
    for (const rule of Object.values(CHECK_RULES)) {
      expect(doc, rule.code).toContain(`| \`${rule.code}\` | ${rule.severity} |`);
    }
  });
});
