/**
 * Heap measurements for the long run: `heapUsed` after a full garbage collection, so what is
 * measured is what is retained, not what happens to be waiting for the collector.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type GC = () => void;

/** The `gc()` function: the global one under `--expose-gc`, else one exposed at run time. */
export function exposeGc(): GC {
  const existing = (globalThis as { gc?: GC }).gc;
  if (typeof existing === 'function') return existing;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as GC;
}

/** `heapUsed` in bytes after collecting garbage until it stops shrinking (at most 5 rounds). */
export async function retainedHeap(gc: GC): Promise<number> {
  let last = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 5; round += 1) {
    // Let pending callbacks (socket closes, timers cleared) finish before collecting.
    await new Promise<void>((resolve) => setImmediate(resolve));
    gc();
    const used = process.memoryUsage().heapUsed;
    if (used >= last - 64 * 1024) return Math.min(used, last);
    last = used;
  }
  return last;
}

/** Bytes as `1.23 MiB` / `456.7 KiB`. */
export function formatBytes(bytes: number): string {
  const sign = bytes < 0 ? '-' : '';
  const abs = Math.abs(bytes);
  return abs >= 1024 * 1024 ? `${sign}${(abs / 1024 / 1024).toFixed(2)} MiB` : `${sign}${(abs / 1024).toFixed(1)} KiB`;
}
