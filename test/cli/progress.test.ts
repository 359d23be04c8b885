import { describe, expect, it } from 'vitest';
import { styles } from '../../src/cli/context.js';
import { createProgress } from '../../src/cli/progress.js';

function terminal(isTTY = true) {
  let text = '';
  return { out: { write: (t: string) => (text += t), isTTY, columns: 100 }, text: () => text };
}

describe('cli/progress', () => {
  it('draws one line on a terminal with grouped counts, and clears it at the end', () => {
    const t = terminal();
    const p = createProgress(t.out, {}, { label: 'filing', total: 2000, style: styles(false) });
    p.update(1000, 3);
    expect(t.text()).toMatch(/^\r\u001b\[Kfiling \[█+░+\] 1,000\/2,000 · 3 stopped$/);
    p.note('stopping…');
    expect(t.text()).toMatch(/1,000\/2,000 · 3 stopped · stopping…$/);
    p.end();
    expect(t.text().endsWith('\r\u001b[K')).toBe(true);
  });

  it('names the unit when given and draws the last update even within the redraw interval', () => {
    const t = terminal();
    const p = createProgress(t.out, {}, { label: 'checking', unit: 'files', total: 60, minTotal: 50, style: styles(false) });
    p.update(1);
    p.update(60);
    expect(t.text()).toMatch(/checking \[█+\] 60\/60 files$/);
  });

  it('draws nothing on a pipe, on CI, on a dumb terminal, or below its minimum', () => {
    for (const [out, env, total] of [
      [terminal(false), {}, 100],
      [terminal(), { CI: 'true' }, 100],
      [terminal(), { TERM: 'dumb' }, 100],
      [terminal(), {}, 10],
    ] as const) {
      const p = createProgress(out.out, env, { label: 'checking', total, minTotal: 50, style: styles(false) });
      p.update(5);
      p.note('x');
      p.end();
      expect(out.text()).toBe('');
    }
  });
});
