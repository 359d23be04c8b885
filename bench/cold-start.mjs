#!/usr/bin/env node
/**
 * Cold start, side by side: a new Node process that imports the client, constructs it and has its
 * first GET answered by the loopback server (bench/lib/server.mjs), then exits; timed from spawn to
 * exit. Raw `fetch` + `JSON.parse` in the same kind of process is the baseline; openai and stripe
 * are the peers. Rounds are interleaved (fetch, invoicing-sdk, openai, stripe, fetch, …), so a busy
 * machine slows every client alike; each figure is the median.
 *
 *   npm run build && node bench/cold-start.mjs [--quick]
 *
 * Goal (issue 16): at most 40 ms over raw fetch, and below every peer.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { KINDS } from './lib/clients.mjs';
import { fmtMs, median, quick, report, requireBuild } from './lib/common.mjs';
import { startServer } from './lib/server.mjs';

const ROUNDS = quick ? 7 : 25;
const child = fileURLToPath(new URL('./lib/cold-child.mjs', import.meta.url));

function once(kind, origin) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const proc = spawn(process.execPath, [child, kind, origin], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr.on('data', (chunk) => (stderr += chunk));
    proc.on('close', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`${kind}: exit ${code}\n${stderr}`))));
  });
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
  ]);
} finally {
  server.stop();
}
