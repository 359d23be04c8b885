#!/usr/bin/env node
/**
 * Cold start, side by side: a new Node process that imports the client, constructs it and has its
 * first GET answered by the loopback server (bench/lib/server.mjs), then exits; timed from spawn to
 * exit. Raw `fetch` + `JSON.parse` in the same kind of process is the baseline; openai and stripe
 * are the peers. Rounds are interleaved (fetch, invoicing-sdk, openai, stripe, fetch, …), so a busy
 * machine slows every client alike; each figure is the median.
 *
 * Then the import alone, in new processes that only import: ky, zod and uuid alone (classic `zod`,
 * and the zod entry the SDK's build imports), the SDK's main entry, and `invoicing-sdk/check`, each
 * less a process that imports nothing. The SDK's own share is the SDK less its dependencies, paired
 * per round, with a bootstrap 90 % interval of its median.
 *
 *   npm run build && node bench/cold-start.mjs [--quick]
 *
 * Goals (issue 25): below every peer, the bootstrap 90 % interval of each paired difference below
 * zero; the SDK's own import share at most 10 ms over its dependencies alone.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { KINDS } from './lib/clients.mjs';
import { fmtMs, median, percentile, quick, report, requireBuild, root } from './lib/common.mjs';
import { readdirSync, readFileSync } from 'node:fs';
import { startServer } from './lib/server.mjs';

const ROUNDS = quick ? 7 : 25;
const child = fileURLToPath(new URL('./lib/cold-child.mjs', import.meta.url));
const importChild = fileURLToPath(new URL('./lib/import-child.mjs', import.meta.url));
const IMPORTS = ['none', 'deps', 'depsAsBuilt', 'sdk', 'check'];

/** ky, uuid and the zod entries the built package imports. */
function depsAsBuilt() {
  const zod = new Set();
  for (const file of readdirSync(`${root}/dist`)) {
    if (!file.endsWith('.js')) continue;
    for (const match of readFileSync(`${root}/dist/${file}`, 'utf8').matchAll(/from\s*["'](zod[^"']*)["']/g)) zod.add(match[1]);
  }
  return ['ky', ...[...zod].sort(), 'uuid'];
}

const SPECIFIERS = {
  none: [],
  deps: ['ky', 'zod', 'uuid'],
  depsAsBuilt: depsAsBuilt(),
  sdk: ['invoicing-sdk'],
  check: ['invoicing-sdk/check'],
};

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
  for (const what of IMPORTS) await timed([importChild, ...SPECIFIERS[what]], what);
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < IMPORTS.length; i++) {
      const what = IMPORTS[(round + i) % IMPORTS.length];
      times[what].push(await timed([importChild, ...SPECIFIERS[what]], what));
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
  const peers = KINDS.filter((kind) => kind !== 'fetch' && kind !== 'invoicing-sdk');
  const versus = Object.fromEntries(peers.map((peer) => {
    const diffs = times['invoicing-sdk'].map((t, i) => t - times[peer][i]);
    return [peer, { median: median(diffs), interval: interval90(diffs) }];
  }));
  const imports = await importTimes();
  const share = (deps) => {
    const own = imports.sdk.map((t, i) => t - imports[deps][i]);
    return { median: median(own), interval: interval90(own) };
  };
  const own = share('depsAsBuilt');
  const ownClassic = share('deps');
  const net = (what) => median(imports[what]) - median(imports.none);
  const plus = (kind) => `${fmtMs(m[kind])} (${m[kind] >= m.fetch ? '+' : '−'}${Math.abs(m[kind] - m.fetch).toFixed(1)} ms)`;
  const ms = ({ median: mid, interval: [low, high] }) => `${mid >= 0 ? '+' : '−'}${fmtMs(Math.abs(mid))} [${fmtMs(low)}, ${fmtMs(high)}]`;
  report('cold start', [
    {
      measure: `cold start: new process, import + construct + first GET answered, median of ${ROUNDS}`,
      fetch: fmtMs(m.fetch),
      sdk: plus('invoicing-sdk'),
      openai: plus('openai'),
      stripe: plus('stripe'),
    },
    {
      measure: 'cold start, invoicing-sdk less each peer, paired per round, median [bootstrap 90 % interval]',
      sdk: '',
      openai: ms(versus.openai),
      stripe: ms(versus.stripe),
      goal: 'below every peer, the interval below zero',
      met: peers.every((peer) => versus[peer].interval[1] < 0),
    },
    {
      measure: `import alone, less an empty process (${fmtMs(median(imports.none))}), median of ${ROUNDS}: invoicing-sdk / ky + zod + uuid alone (classic zod) / the same with the zod entry the build imports (${SPECIFIERS.depsAsBuilt.join(', ')}) / invoicing-sdk/check`,
      sdk: `${fmtMs(net('sdk'))} / ${fmtMs(net('deps'))} / ${fmtMs(net('depsAsBuilt'))} / ${fmtMs(net('check'))}`,
    },
    {
      measure: "the SDK's own import share: invoicing-sdk less its dependencies as built, paired per round, median [bootstrap 90 % interval]; less ky + classic zod + uuid",
      sdk: `${ms(own)}; ${ms(ownClassic)}`,
      goal: '≤ 10 ms',
      met: own.median <= 10,
    },
  ]);
} finally {
  server.stop();
}
