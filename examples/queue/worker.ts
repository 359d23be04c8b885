/**
 * One worker process of the scale-out example: pulls filing jobs from a BullMQ queue on Redis and
 * files each invoice exactly once, however often the process is killed and the job handed to
 * another worker.
 *
 * Why it is safe to run many of these, and to kill any of them at any moment:
 * - the job's key is derived from the document: `deriveIdempotencyKey(businessId, externalRef)`.
 *   Every attempt of a job, in any process, creates with that same key, so the service returns the
 *   invoice the first attempt created instead of making a second one;
 * - the first attempt files with `createAndFile`. A job that comes back (a crashed worker's job,
 *   found stalled by BullMQ, or a failed attempt retried) instead re-creates with the same key (a
 *   replay: the same invoice, in whatever state it reached) and calls `resumeFiling`, which reads
 *   where the invoice stands and performs only the steps left: an invoice already submitted is
 *   never submitted again.
 *
 * And one backoff per API key across every process: a 429 that the SDK's own retries could not
 * absorb pauses the whole queue (BullMQ's rate limit lives in Redis) for the `Retry-After`, so no
 * worker anywhere sends with that key until it has passed; the job goes back to the queue without
 * using up an attempt.
 *
 * Environment:
 *   REDIS_URL            where the queue lives (default redis://127.0.0.1:6379)
 *   QUEUE_NAME           default `invoices`
 *   WORKER_CONCURRENCY   jobs in flight in this process (default 4)
 *   INVOICING_BASE_URL, INVOICING_API_KEY   the service (the client reads them)
 *
 * Started by scale-out.ts; on its own:
 *   node --import ./scripts/examples-loader.mjs examples/queue/worker.ts
 */
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { deriveIdempotencyKey, InvoicingClient, isRateLimitError, type InvoiceCreateParams, type RateLimitError } from 'invoicing-sdk';
import { pathToFileURL } from 'node:url';

/** What a filing job carries: your document number and the invoice as you would send it. */
export interface FilingJob {
  externalRef: string;
  input: InvoiceCreateParams;
}

/** What a finished job returns (kept by BullMQ as the job's return value). */
export interface FilingJobResult {
  invoiceId: string;
  status: string;
  resumed: boolean;
}

/** Files one job's invoice: createAndFile on the first attempt, resumeFiling on any later one. */
export async function fileJob(client: InvoicingClient, job: Job<FilingJob>): Promise<FilingJobResult> {
  const { externalRef, input } = job.data;
  const idempotencyKey = deriveIdempotencyKey(input.businessId, externalRef);
  // attemptsStarted counts every start, stalled ones included; > 1 means an earlier attempt may have
  // done part of the work (or all of it) before it died.
  const retry = job.attemptsStarted > 1 || job.attemptsMade > 0 || job.stalledCounter > 0;
  if (!retry) {
    const { invoice } = await client.invoices.createAndFile(input, { idempotencyKey });
    return { invoiceId: invoice.id, status: invoice.status, resumed: false };
  }
  // Same key: the service answers with the invoice the earlier attempt created, if it got that far.
  const existing = await client.invoices.create(input, { idempotencyKey });
  const { invoice } = await client.invoices.resumeFiling(existing.id);
  return { invoiceId: invoice.id, status: invoice.status, resumed: true };
}

async function main(): Promise<void> {
  const client = new InvoicingClient({ logLevel: 'error' });
  const name = process.env.QUEUE_NAME ?? 'invoices';
  // BullMQ takes a ready-made client in ESM; maxRetriesPerRequest: null is what it requires of a worker's.
  const connection = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  const queue = new Queue<FilingJob, FilingJobResult>(name, { connection });
  const processor = async (job: Job<FilingJob>): Promise<FilingJobResult> => {
    try {
      return await fileJob(client, job);
    } catch (err) {
      // createAndFile/resumeFiling stop with a FilingError whose cause is the service's answer.
      const limited = isRateLimitError(err) ? err : isRateLimitError((err as { cause?: unknown }).cause) ? (err as { cause: RateLimitError }).cause : undefined;
      if (limited === undefined) throw err;
      // One shared backoff: every worker of the queue waits out the service's Retry-After.
      await queue.rateLimit(limited.retryAfter ?? 1_000);
      throw Worker.RateLimitError();
    }
  };
  const worker = new Worker<FilingJob, FilingJobResult>(name, processor, {
    connection,
    concurrency: Number(process.env.WORKER_CONCURRENCY ?? 4),
    // A killed worker's jobs are handed on once its lock lapses: short, so a crash costs seconds.
    lockDuration: 3_000,
    stalledInterval: 1_000,
    // A job may be caught by several crashes in a row; each is a stall, not a failure of the job.
    maxStalledCount: 1_000,
  });
  worker.on('failed', (job, err) => console.error(`job ${job?.id ?? '?'} attempt ${job?.attemptsMade ?? '?'} failed: ${err.message}`));
  const stop = async (): Promise<void> => {
    await worker.close();
    await queue.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  // Started by scale-out.ts: go when it goes, rather than linger holding jobs.
  process.once('disconnect', () => void stop());
  process.once('SIGINT', () => void stop());
  await worker.waitUntilReady();
  process.send?.('ready');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
