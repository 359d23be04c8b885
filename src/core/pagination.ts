// Listings follow `meta.totalPages`; a walk stops with a warning at a repeated or empty page, or after MAX_PAGES_PER_WALK.
import type { ListingMeta } from './envelope.js';
import { InvoicingError } from './errors.js';
import type { Logger } from './logger.js';
import { APIPromise, type ResponseRecorder } from './api-promise.js';

export const MAX_PAGES_PER_WALK = 10_000;

/** True when the service numbers a page (`echo`, its `meta.page`) at or before one read earlier in the same walk. */
export function repeatsPage(echo: number | undefined, previousEcho: number | undefined): boolean {
  return echo !== undefined && previousEcho !== undefined && echo <= previousEcho;
}

/** Why a walk stops at page `asked` (a repeated page, or an empty one or the page cap while `totalPages` says there are more), for the warning. */
export function earlyStop(
  listing: string, asked: number, echo: number | undefined, previousEcho: number | undefined,
  count: number, walked: number, totalPages: number | undefined,
): string | undefined {
  if (repeatsPage(echo, previousEcho)) {
    return `${listing}: page ${asked} came back as meta.page ${echo}, already read (?page ignored); stopped without it.`;
  }
  if (totalPages === undefined || asked >= totalPages) return undefined;
  if (count === 0) return `${listing}: page ${asked} came back empty (meta.totalPages ${totalPages}); stopped.`;
  if (walked >= MAX_PAGES_PER_WALK) {
    return `${listing}: stopped after ${walked} pages (meta.totalPages ${totalPages}); continue from page ${asked + 1}.`;
  }
  return undefined;
}

/** Loads page `page` (from 1). @example import type { PageLoader } from 'invoicing-sdk'; declare const load: PageLoader<string>; const second = await load(2); */
export type PageLoader<T> = (page: number) => Promise<Page<T>>;

/**
 * One page of a listing, with the way to the next.
 * @example
 * ```ts
 * const page = await client.invoices.list({ limit: 100 });
 * if (page.hasNextPage()) await page.getNextPage();
 * ```
 */
export class Page<T> implements AsyncIterable<T> {
  /** The items of this page. */ readonly data: T[];
  /** The listing's `meta` as the service sent it; `undefined` when it sent none. */ readonly meta: ListingMeta | undefined;
  /** The page asked for, from 1 (the service's own number for it is `meta.page`). */ readonly pageNumber: number;
  readonly #load: PageLoader<T>;
  readonly #logger: Pick<Logger, 'warn'> | undefined;
  /** The last `meta.page` of the earlier pages of this walk. */ #previousEcho: number | undefined;
  /** Pages read in this walk, this one included. */ #walked = 1;
  #warned = false;

  constructor(init: {
    data: T[];
    meta: ListingMeta | undefined;
    requestedPage: number;
    load: PageLoader<T>;
    /** Where a walk that stops early says why (the client's logger). */ logger?: Pick<Logger, 'warn'> | undefined;
  }) {
    this.data = init.data;
    this.meta = init.meta;
    this.pageNumber = init.requestedPage;
    this.#load = init.load;
    this.#logger = init.logger;
  }

  /** True (and warns once) when the walk stops at this page for a reason the server caused. */
  #stopsEarly(): boolean {
    const { meta } = this;
    const reason = earlyStop('Listing', this.pageNumber, meta?.page, this.#previousEcho, this.data.length, this.#walked, meta?.totalPages);
    if (reason !== undefined && !this.#warned) this.#logger?.warn(reason);
    this.#warned ||= reason !== undefined;
    return reason !== undefined;
  }

  /** True when `meta.totalPages` says a later page exists, and this page is neither empty, a repeat, nor past the page cap. */
  hasNextPage(): boolean {
    const total = this.meta?.totalPages;
    return total !== undefined && this.pageNumber < total && !this.#stopsEarly();
  }

  /** Loads the next page. Throws an `InvoicingError` when there is none (check `hasNextPage()`). */
  async getNextPage(): Promise<Page<T>> {
    if (!this.hasNextPage()) {
      throw new InvoicingError(`There is no page after page ${this.pageNumber}; check hasNextPage() first.`);
    }
    const next = await this.#load(this.pageNumber + 1);
    if (next !== this && #walked in next) {
      next.#previousEcho = this.meta?.page ?? this.#previousEcho;
      next.#walked = this.#walked + 1;
    }
    return next;
  }

  /** This page and every later one, in order. A page whose `meta.page` repeats one already read is not yielded (see {@link Page.hasNextPage}). */
  async *iterPages(): AsyncGenerator<Page<T>, void, undefined> {
    let page: Page<T> = this;
    yield page;
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      if (repeatsPage(page.meta?.page, page.#previousEcho)) {
        page.#stopsEarly();
        return;
      }
      yield page;
    }
  }

  /** Every item of this page and of every later page. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.iterPages()) yield* page.data;
  }
}

/** What `list()` returns: await it for the first page, iterate it for every item; nothing is sent before either. @example for await (const invoice of client.invoices.list()) console.log(invoice.id); */
export class PagePromise<T> extends APIPromise<Page<T>> implements AsyncIterable<T> {
  /** @internal */
  constructor(loadFirst: (record: ResponseRecorder) => Promise<Page<T>>) {
    super(loadFirst, true);
  }

  /** Every item of every page. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    yield* await this;
  }
}
