#!/usr/bin/env node
/**
 * Cold start, side by side: a new Node process that imports the client, constructs it and has its
 * first GET answered by the loopback server (bench/lib/server.mjs), then exits; timed from spawn to
 * exit. Raw `fetch` + `JSON.parse` in the same kind of process is the baseline; openai and stripe
 * are the peers. Rounds are interleaved (fetch, invoicing-sdk, openai, stripe, fetch, …), so a busy
 * machine slows every client alike; each figure is the median.
 *
 * Then the import alone, in new processes that only import: ky, zod and uuid alone, the SDK's main
 * entry, and `invoicing-sdk/check`, each less a process that imports nothing. The SDK's own share is
 * the SDK less its dependencies, paired per round, with a bootstrap 90 % interval of its median.
 *
 *   npm run build && node bench/cold-start.mjs [--quick]
 *
 * Goals: at most 40 ms over raw fetch and below every peer; the SDK's own import share at most 10 ms.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { KINDS } from './lib/clients.mjs';
import { fmtMs, median, percentile, quick, report, requireBuild, root } from './lib/common.mjs';
import { startServer } from './lib/server.mjs';

const ROUNDS = quick ? 7 : 25;
const child = fileURLToPath(new URL('./lib/cold-child.mjs', import.meta.url));
const importChild = fileURLToPath(new URL('./lib/import-child.mjs', import.meta.url));
const IMPORTS = ['none', 'deps', 'sdk', 'check'];

/** Milliseconds from spawn to exit of one child process. */
function timed(args, label) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const proc = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr.on('data', (chunk) => (stderr += chunk));
    proc.on('close', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`${label}: exit ${code}\n${stderr}`))));
  });
}

const once = (kind, origin) => timed([child, kind, origin], kind);

/** A bootstrap 90 % interval of the median of `values` (fixed seed, so a run is reproducible). */
function interval90(values) {
  let seed = 1;
  const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
  const medians = Array.from({ length: 2000 }, () => median(values.map(() => values[Math.floor(random() * values.length)])));
  return [percentile(medians, 5), percentile(medians, 95)];
}

/** Import-only processes, interleaved like the cold starts; times per kind of import. */
async function importTimes() {
  const times = Object.fromEntries(IMPORTS.map((what) => [what, []]));
  for (const what of IMPORTS) await timed([importChild, what], what);
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < IMPORTS.length; i++) {
      const what = IMPORTS[(round + i) % IMPORTS.length];
      times[what].push(await timed([importChild, what], what));
    }
  }
  return times;
}

requireBuild();
const server = await startServer();
try {
  const times = Object.fromEntries(KINDS.map((kind) => [kind, []]));
  for (const kind of KINDS) await once(kind, server.origin); // disk cache warm for everyone
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order, so no client always runs right after the same other one.
    for (let i = 0; i < KINDS.length; i++) {
      const kind = KINDS[(round + i) % KINDS.length];
      times[kind].push(await once(kind, server.origin));
    }
  }
  const m = Object.fromEntries(KINDS.map((kind) => [kind, median(times[kind])]));
  const over = m['invoicing-sdk'] - m.fetch;
  const peers = Math.min(m.openai, m.stripe);
  const imports = await importTimes();
  const own = imports.sdk.map((t, i) => t - imports.deps[i]);
  const [low, high] = interval90(own);
  const net = (what) => median(imports[what]) - median(imports.none);
  const plus = (kind) => `${fmtMs(m[kind])} (${m[kind] >= m.fetch ? '+' : '−'}${Math.abs(m[kind] - m.fetch).toFixed(1)} ms)`;
  report('cold start', [
    {
      measure: `cold start: new process, import + construct + first GET answered, median of ${ROUNDS}`,
      fetch: fmtMs(m.fetch),
      sdk: plus('invoicing-sdk'),
      openai: plus('openai'),
      stripe: plus('stripe'),
      goal: '≤ +40 ms over raw fetch, below every peer',
      met: over <= 40 && m['invoicing-sdk'] < peers,
    },
    {
      measure: `import alone, less an empty process (${fmtMs(median(imports.none))}), median of ${ROUNDS}: invoicing-sdk / ky + zod + uuid alone / invoicing-sdk/check`,
      sdk: `${fmtMs(net('sdk'))} / ${fmtMs(net('deps'))} / ${fmtMs(net('check'))}`,
    },
    {
      measure: "the SDK's own import share: invoicing-sdk less ky + zod + uuid, paired per round, median [bootstrap 90 % interval]",
      sdk: `${fmtMs(median(own))} [${fmtMs(low)}, ${fmtMs(high)}]`,
      goal: '≤ 10 ms',
      met: median(own) <= 10,
    },
  ]);
} finally {
  server.stop();
}
