/**
 * Filing from several processes: N workers pull filing jobs from a BullMQ queue on Redis, and every
 * invoice is filed exactly once even when workers die mid-filing (see worker.ts for why).
 *
 * This script starts what it needs when it is not given one: a throw-away `redis-server` on a
 * loopback port (unless REDIS_URL is set) and the SDK's sandbox as a loopback server (unless
 * INVOICING_BASE_URL is set). It then files the same number of invoices with 1, 2 and 4 worker
 * processes and prints invoices per second for each.
 *
 *   npm run build
 *   node --import ./scripts/examples-loader.mjs examples/queue/scale-out.ts [--invoices 300] [--workers 1,2,4]
 *
 * Environment (all optional): REDIS_URL, INVOICING_BASE_URL, INVOICING_API_KEY, INVOICING_BUSINESS_ID
 */
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { InvoiceCreateParams } from 'invoicing-sdk';
import type { FilingJob, FilingJobResult } from './worker.js';

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));

/** What {@link runScaleOut} needs. */
export interface ScaleOutOptions {
  redisUrl: string;
  baseUrl: string;
  apiKey: string;
  businessId: string;
  /** Worker processes. */
  workers: number;
  /** Invoices to file (one job each). */
  invoices: number;
  /** Jobs in flight per worker process (default 4). */
  concurrency?: number | undefined;
  /**
   * Kill a random running worker with SIGKILL after about every `killEvery` completed jobs (± half),
   * and start a new one in its place. Paced by progress rather than time, so a slow machine still
   * finishes: every crash lands mid-work, and work gets done between crashes.
   */
  killEvery?: number | undefined;
  /** Called every 2 s with the queue's job counts, the kills so far and the live workers. */
  onProgress?: ((progress: Record<string, number>) => void) | undefined;
  /** Prefix of the document numbers (`externalRef`); default a fresh one per run. */
  refPrefix?: string | undefined;
}

/** What a run measured. */
export interface ScaleOutResult {
  /** The document numbers filed, in order. */
  refs: string[];
  elapsedMs: number;
  invoicesPerSecond: number;
  completed: number;
  failed: number;
  /** Workers killed with SIGKILL (and replaced). */
  kills: number;
  /** Jobs that ran again after a crash or a failed attempt (resumeFiling). */
  resumed: number;
  /** BullMQ's return value of every completed job, by document number. */
  results: Map<string, FilingJobResult>;
}

/** The document `ref` stands for: the same body every time (a replayed create must send the same bytes). */
export function documentFor(businessId: string, ref: string): InvoiceCreateParams {
  const n = Number(ref.replace(/\D/g, '').slice(-4)) || 1;
  return {
    businessId,
    buyer: { type: 'B2B', tin: '40112233-0001', name: 'Blue Harbour Logistics' },
    dueDate: '2027-01-31T00:00:00Z',
    lines: [{ description: `Freight, order ${ref}`, quantity: 1 + (n % 5), unitPrice: 120.5, taxRate: 7.5, isicCode: '4923' }],
  };
}

// --- A throw-away Redis: Debian's redis-server on a free loopback port, data in a temp folder ------
// In production the workers point at your own Redis (REDIS_URL); this lets the example and its CI
// check run from a fresh clone with nothing set up by hand.

/** A running Redis: where to reach it, and how to stop it. */
export interface LocalRedis {
  host: string;
  port: number;
  url: string;
  stop(): Promise<void>;
}

/** A port the kernel says is free on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Starts `redis-server` on a free loopback port; rejects with what to install when it is missing. */
export async function startRedis(): Promise<LocalRedis> {
  if (spawnSync('redis-server', ['--version']).error !== undefined) {
    throw new Error('redis-server is not installed: apt-get install -y redis-server (or set REDIS_URL to your own Redis).');
  }
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'invoicing-queue-redis-'));
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start within 10 s:\n${output}`)), 10_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`));
    });
  });
  child.stdout.resume();
  child.stderr.resume();
  return {
    host: '127.0.0.1',
    port,
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}


const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Files `opts.invoices` invoices through a fresh queue with `opts.workers` worker processes. */
export async function runScaleOut(opts: ScaleOutOptions): Promise<ScaleOutResult> {
  const queueName = `invoices-${randomUUID().slice(0, 8)}`;
  const connection = new Redis(opts.redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue<FilingJob, FilingJobResult>(queueName, { connection });
  const prefix = opts.refPrefix ?? `ORDER-${randomUUID().slice(0, 6)}`;
  const refs = Array.from({ length: opts.invoices }, (_, i) => `${prefix}-${String(i + 1).padStart(4, '0')}`);
  const env = {
    ...process.env,
    REDIS_URL: opts.redisUrl,
    QUEUE_NAME: queueName,
    WORKER_CONCURRENCY: String(opts.concurrency ?? 4),
    INVOICING_BASE_URL: opts.baseUrl,
    INVOICING_API_KEY: opts.apiKey,
  };
  const live = new Set<ChildProcess>();
  // Workers connected to the queue: only these are killed, so a crash always lands mid-work.
  const ready = new Set<ChildProcess>();
  const spawnWorker = (): Promise<void> => {
    // fork() keeps this process's --import of the examples loader, so the worker runs as TypeScript too.
    const child = fork(WORKER, [], { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    live.add(child);
    child.once('exit', () => {
      live.delete(child);
      ready.delete(child);
    });
    return new Promise((resolve) => {
      child.once('message', () => {
        ready.add(child);
        resolve();
      });
      child.once('exit', () => resolve());
    });
  };

  let kills = 0;
  try {
    await Promise.all(Array.from({ length: opts.workers }, spawnWorker));
    const started = performance.now();
    // jobId = the document number: enqueuing the same document twice is one job.
    await queue.addBulk(
      refs.map((externalRef) => ({
        name: 'file',
        data: { externalRef, input: documentFor(opts.businessId, externalRef) },
        opts: { jobId: externalRef, attempts: 10, backoff: { type: 'exponential', delay: 200 } },
      })),
    );

    let done = false;
    let completed = 0;
    const chaos = (async () => {
      const every = opts.killEvery;
      if (every === undefined) return;
      let next = every * (0.5 + Math.random());
      while (!done) {
        await sleep(20);
        if (done || completed < next) continue;
        next = completed + every * (0.5 + Math.random());
        // A random moment, so the victim is caught at any step of its filings.
        await sleep(Math.random() * 300);
        const victims = [...ready];
        const victim = victims[Math.floor(Math.random() * victims.length)];
        if (victim === undefined) continue;
        victim.kill('SIGKILL');
        kills += 1;
        void spawnWorker();
      }
    })();

    let counts: Record<string, number> = {};
    let reported = performance.now();
    for (;;) {
      counts = await queue.getJobCounts('completed', 'failed', 'active', 'wait');
      completed = counts.completed ?? 0;
      if ((counts.completed ?? 0) + (counts.failed ?? 0) >= refs.length) break;
      if (opts.onProgress !== undefined && performance.now() - reported > 2_000) {
        reported = performance.now();
        opts.onProgress({ ...counts, kills, workers: live.size });
      }
      await sleep(50);
    }
    const elapsedMs = performance.now() - started;
    done = true;
    await chaos;

    const results = new Map<string, FilingJobResult>();
    let resumed = 0;
    for (const job of await queue.getJobs(['completed'], 0, -1)) {
      if (job.returnvalue === undefined || job.returnvalue === null) continue;
      results.set(job.data.externalRef, job.returnvalue);
      if (job.returnvalue.resumed) resumed += 1;
    }
    return {
      refs,
      elapsedMs,
      invoicesPerSecond: refs.length / (elapsedMs / 1000),
      completed: counts.completed ?? 0,
      failed: counts.failed ?? 0,
      kills,
      resumed,
      results,
    };
  } finally {
    await Promise.all(
      [...live].map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
            child.once('exit', () => {
              clearTimeout(force);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    await connection.quit().catch(() => undefined);
  }
}

/**
 * The service to file with: the environment's, or a sandbox started here (loopback), answering every
 * request `latencyMs` late, as a service across the internet would.
 */
export async function serviceFromEnv(latencyMs = 0): Promise<{ baseUrl: string; apiKey: string; businessId: string; close(): Promise<void> }> {
  const { INVOICING_BASE_URL: baseUrl, INVOICING_API_KEY: apiKey, INVOICING_BUSINESS_ID: businessId } = process.env;
  if (baseUrl && apiKey && businessId) return { baseUrl, apiKey, businessId, close: async () => {} };
  const { createSandbox } = await import('invoicing-sdk/testing');
  const sandbox = await createSandbox();
  if (latencyMs > 0) sandbox.faults.inject({ kind: 'delay', ms: latencyMs, times: Number.POSITIVE_INFINITY });
  return { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, businessId: sandbox.businessId, close: () => sandbox.close() };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      invoices: { type: 'string', default: '300' },
      workers: { type: 'string', default: '1,2,4' },
      latency: { type: 'string', default: '0' },
    },
  });
  const redis = process.env.REDIS_URL ? undefined : await startRedis();
  const service = await serviceFromEnv(Number(values.latency));
  try {
    console.log(`Sandbox latency per request: ${values.latency} ms`);
    console.log('| workers | invoices | seconds | invoices/s |');
    console.log('|---|---|---|---|');
    for (const workers of values.workers.split(',').map(Number)) {
      const run = await runScaleOut({ redisUrl: process.env.REDIS_URL ?? redis!.url, ...service, workers, invoices: Number(values.invoices) });
      if (run.failed > 0) throw new Error(`${run.failed} jobs failed`);
      console.log(`| ${workers} | ${run.completed} | ${(run.elapsedMs / 1000).toFixed(2)} | ${run.invoicesPerSecond.toFixed(1)} |`);
    }
  } finally {
    await service.close();
    await redis?.stop();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
