// The CLI's one progress bar: one redrawn line on a terminal's stderr, off on CI, pipes and `TERM=dumb`.
import type { CliContext, Output, Styles } from './context.js';
import { formatNumber } from './format.js';

interface ProgressOptions { label: string; total: number; unit?: string; minTotal?: number; style: Styles; }

/** A progress line on `out` (stderr); draws nothing off a terminal or below `minTotal` items (default 2). */
export function createProgress(out: Output, env: CliContext['env'], opts: ProgressOptions) {
  const enabled = out.isTTY === true && env.CI === undefined && env.TERM !== 'dumb' && opts.total >= (opts.minTotal ?? 2);
  const { label, total, style } = opts;
  let last = 0;
  let done = 0;
  let failed = 0;
  let note = '';
  const draw = (): void => {
    const counts = `${formatNumber(done)}/${formatNumber(total)}${opts.unit === undefined ? '' : ` ${opts.unit}`}`;
    const width = Math.max(10, Math.min(40, (out.columns ?? 80) - label.length - counts.length - 24));
    const filled = Math.round((done / total) * width);
    const stopped = failed > 0 ? style.red(` · ${formatNumber(failed)} stopped`) : '';
    const tail = note === '' ? '' : ` · ${note}`;
    out.write(`\r\u001b[K${label} [${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${counts}${stopped}${tail}`);
  };
  return {
    /** `done` of the total finished; `failed` of them did not go through (shown when above 0). */
    update(n: number, f = 0): void {
      done = n;
      failed = f;
      if (!enabled) return;
      const now = Date.now();
      if (now - last < 80 && done < total) return;
      last = now;
      draw();
    },
    /** A word after the counts (`stopping` after Ctrl-C), drawn at once. */
    note(text: string): void {
      note = text;
      if (enabled) draw();
    },
    end(): void {
      if (enabled) out.write('\r\u001b[K');
    },
  };
}
