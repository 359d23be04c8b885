// Module hooks for record-loads.mjs (they run on the loader thread).
import { appendFileSync } from 'node:fs';

export async function load(url, context, nextLoad) {
  if (process.env.BENCH_LOADED && url.startsWith('file:')) appendFileSync(process.env.BENCH_LOADED, `${url}\n`);
  return nextLoad(url, context);
}
