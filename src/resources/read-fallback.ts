import type { Logger } from '../core/logger.js';

/** How many recently seen ids are remembered (bounded: memory stays flat on a long-lived client). */
const REMEMBERED_IDS = 10_000;

/** Texts of a framework's "no such route" answer (Express, NestJS, Fastify, …). */
const ROUTE_MISSING = /cannot get|route .*not found|no route|not found: get/i;

/** Per-client memory of whether the single-invoice read route exists. */
export class ReadRouteFallback {
  readonly #seen = new Set<string>();
  #warned = false;
  /** True once the read route is known to be missing: read through the list route instead. */ useList = false;

  constructor(private readonly logger: Logger) {}

  /** Remembers ids the service has just returned (created or listed), oldest forgotten first. */
  remember(id: string): void {
    this.#seen.delete(id);
    this.#seen.add(id);
    if (this.#seen.size > REMEMBERED_IDS) this.#seen.delete(this.#seen.values().next().value as string);
  }

  /** After a 404: true (and the route marked missing) when the service returned the id or the answer reads as a missing route. */
  routeMissingAfter404(id: string, message: string): boolean {
    if (!this.#seen.has(id) && !ROUTE_MISSING.test(message)) return false;
    this.useList = true;
    if (!this.#warned) {
      this.#warned = true;
      this.logger.warn(
        'GET /api/v1/invoices/{id} answered 404 as a missing route (for an invoice the service returned to this client, ' +
          'or with a framework\'s "no such route" text): the deployment has no single-invoice read route. ' +
          'This client reads invoices through the list route from now on.',
      );
    }
    return true;
  }
}
