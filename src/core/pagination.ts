/**
 * Listings. `list()` returns a {@link PagePromise}: await it for the first {@link Page}, or iterate
 * it with `for await` for every item of every page. Pages are followed by `meta.totalPages`, which the
 * service computes, so no request is ever made for a page that does not exist.
 */
import type { ListingMeta } from '../schemas/envelope.js';
import { InvoicingError } from './errors/invoicing-error.js';

/**
 * Loads page `page` (from 1).
 *
 * @example
 * ```ts
 * import type { PageLoader } from 'invoicing-sdk';
 * declare const load: PageLoader<string>;
 * const second = await load(2);
 * ```
 */
export type PageLoader<T> = (page: number) => Promise<Page<T>>;

/**
 * One page of a listing, with the way to the next.
 *
 * @example
 * ```ts
 * let page = await client.invoices.list({ limit: 100 });
 * for (;;) {
 *   for (const invoice of page.data) console.log(invoice.id);
 *   if (!page.hasNextPage()) break;
 *   page = await page.getNextPage();
 * }
 * ```
 */
export class Page<T> implements AsyncIterable<T> {
  /** The items of this page. */
  readonly data: T[];
  /** The listing's `meta` as the service sent it; `undefined` when it sent none. */
  readonly meta: ListingMeta | undefined;
  /** This page's number, from 1 (the service's `meta.page`, else the page asked for). */
  readonly pageNumber: number;
  readonly #load: PageLoader<T>;

  constructor(init: { data: T[]; meta: ListingMeta | undefined; requestedPage: number; load: PageLoader<T> }) {
    this.data = init.data;
    this.meta = init.meta;
    this.pageNumber = init.meta?.page ?? init.requestedPage;
    this.#load = init.load;
  }

  /**
   * True when `meta.totalPages` says a later page exists. False when the service sent no
   * `totalPages`: the SDK does not guess.
   *
   * @example
   * ```ts
   * const page = await client.invoices.list();
   * if (page.hasNextPage()) console.log('more to come');
   * ```
   */
  hasNextPage(): boolean {
    const total = this.meta?.totalPages;
    return total !== undefined && this.pageNumber < total;
  }

  /**
   * Loads the next page. Throws an `InvoicingError` when there is none (check `hasNextPage()`).
   *
   * @example
   * ```ts
   * const first = await client.invoices.list();
   * const second = first.hasNextPage() ? await first.getNextPage() : undefined;
   * ```
   */
  async getNextPage(): Promise<Page<T>> {
    if (!this.hasNextPage()) {
      throw new InvoicingError(`There is no page after page ${this.pageNumber}; check hasNextPage() first.`);
    }
    return this.#load(this.pageNumber + 1);
  }

  /**
   * This page and every later one, in order.
   *
   * @example
   * ```ts
   * for await (const page of (await client.invoices.list()).iterPages()) console.log(page.data.length);
   * ```
   */
  async *iterPages(): AsyncGenerator<Page<T>, void, undefined> {
    let page: Page<T> = this;
    yield page;
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      yield page;
    }
  }

  /**
   * Every item of this page and of every later page.
   *
   * @example
   * ```ts
   * const page = await client.invoices.list();
   * for await (const invoice of page) console.log(invoice.id);
   * ```
   */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.iterPages()) yield* page.data;
  }
}

/**
 * The result of a `list()` call: awaitable (the first page) and async-iterable (every item of every
 * page). Nothing is requested until it is awaited or iterated; the first page is fetched once, however
 * often it is used.
 *
 * @example
 * ```ts
 * const first = await client.invoices.list({ limit: 50 });   // one page
 * for await (const invoice of client.invoices.list()) {       // every invoice
 *   console.log(invoice.id, invoice.status);
 * }
 * ```
 */
export class PagePromise<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  readonly #loadFirst: () => Promise<Page<T>>;
  #first: Promise<Page<T>> | undefined;

  constructor(loadFirst: () => Promise<Page<T>>) {
    this.#loadFirst = loadFirst;
  }

  #page(): Promise<Page<T>> {
    this.#first ??= this.#loadFirst();
    return this.#first;
  }

  /**
   * Resolves with the first page.
   *
   * @example
   * ```ts
   * client.invoices.list().then((page) => console.log(page.data.length));
   * ```
   */
  then<R1 = Page<T>, R2 = never>(
    onFulfilled?: ((page: Page<T>) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#page().then(onFulfilled, onRejected);
  }

  /**
   * Handles a failure of the first page.
   *
   * @example
   * ```ts
   * const page = await client.invoices.list().catch(() => undefined);
   * ```
   */
  catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<Page<T> | R> {
    return this.#page().catch(onRejected);
  }

  /**
   * Runs `onFinally` once the first page settles.
   *
   * @example
   * ```ts
   * await client.invoices.list().finally(() => console.log('done'));
   * ```
   */
  finally(onFinally?: (() => void) | null): Promise<Page<T>> {
    return this.#page().finally(onFinally);
  }

  /**
   * Every item of every page.
   *
   * @example
   * ```ts
   * for await (const invoice of client.invoices.list({ status: 'Submitted' })) console.log(invoice.id);
   * ```
   */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    yield* await this.#page();
  }
}
