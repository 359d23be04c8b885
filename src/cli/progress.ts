// The CLI's one progress bar: one redrawn line on a terminal's stderr, off on CI, pipes and `TERM=dumb`.
import type { CliContext, Output, Styles } from './context.js';
import { formatNumber } from './format.js';

/** A progress line. */
export interface Progress {
  /** `done` of the total finished; `failed` of them did not go through (shown when above 0). */
  update(done: number, failed?: number): void;
  /** A word after the counts (`stopping…` after Ctrl-C); drawn at once. */ note(text: string): void;
  /** Clears the line. */ end(): void;
}

export interface ProgressOptions {
  /** The verb at the start of the line: `checking`, `filing`. */ label: string;
  total: number;
  /** What is counted (`files`); omitted when the label says it. */ unit?: string;
  /** Shown only from this many items on (default 2). */ minTotal?: number;
  style: Styles;
}

const REDRAW_MS = 80;

/** A progress line on `out` (stderr), or one that draws nothing when it should not show. */
export function createProgress(out: Output, env: CliContext['env'], opts: ProgressOptions): Progress {
  const enabled = out.isTTY === true && env.CI === undefined && env.TERM !== 'dumb' && opts.total >= (opts.minTotal ?? 2);
  const { label, total, style } = opts;
  let last = 0;
  let done = 0;
  let failed = 0;
  let note = '';
  const draw = (): void => {
    const counts = `${formatNumber(done)}/${formatNumber(total)}${opts.unit === undefined ? '' : ` ${opts.unit}`}`;
    const width = Math.max(10, Math.min(40, (out.columns ?? 80) - label.length - counts.length - 24));
    const filled = total === 0 ? width : Math.round((done / total) * width);
    const stopped = failed > 0 ? style.red(` · ${formatNumber(failed)} stopped`) : '';
    const tail = note === '' ? '' : ` · ${note}`;
    out.write(`\r\u001b[K${label} [${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${counts}${stopped}${tail}`);
  };
  return {
    update(n, f = 0) {
      done = n;
      failed = f;
      if (!enabled) return;
      const now = Date.now();
      if (now - last < REDRAW_MS && done < total) return;
      last = now;
      draw();
    },
    note(text) {
      note = text;
      if (enabled) draw();
    },
    end() {
      if (enabled) out.write('\r\u001b[K');
    },
  };
}
