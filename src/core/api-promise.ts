// What every resource method returns: the data when awaited, plus `.withResponse()` and `.asResponse()`.
import { InvoicingError } from './errors.js';

/** The data of a call with the response it came from. @example const { data, response, requestId } = await client.invoices.retrieve('inv_123').withResponse(); */
export interface WithResponse<T> {
  /** What awaiting the call gives. */ data: T;
  /** The (last) HTTP response the data was read from; its body can still be read. */ response: Response;
  /** The `x-request-id` (or `request-id`) header of `response`. */ requestId: string | undefined;
}

/** Receives each response a call reads, so that the last one backs `withResponse()`. */
export type ResponseRecorder = (response: { raw: Response; requestId: string | undefined }) => void;

/** A call in flight: await it for the data, `.withResponse()` adds the response, `.asResponse()` gives the response alone. @example const response = await client.invoices.retrieve('inv_123').asResponse(); */
export class APIPromise<T> implements PromiseLike<T> {
  readonly #run: (record: ResponseRecorder) => Promise<T>;
  #data: Promise<T> | undefined;
  #last: { raw: Response; requestId: string | undefined } | undefined;

  /** `lazy` starts the call only when awaited or asked for the response (listings). @internal */
  constructor(run: (record: ResponseRecorder) => Promise<T>, lazy = false) {
    this.#run = run;
    if (!lazy) this.#start();
  }

  #start(): Promise<T> {
    return (this.#data ??= this.#run((response) => (this.#last = response)));
  }

  /** The data with the response it came from and its request id. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#start().then((data) => {
      const last = this.#last;
      return {
        data,
        get response(): Response {
          if (last === undefined) {
            throw new InvoicingError('This call made no HTTP request (its answer came from the client’s cache), so there is no response.');
          }
          return last.raw;
        },
        requestId: last?.requestId,
      };
    });
  }

  /** The raw `Response` of the call (its body can still be read). */
  asResponse(): Promise<Response> {
    return this.withResponse().then((result) => result.response);
  }

  /** Resolves with the data. */
  then<R1 = T, R2 = never>(
    onFulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#start().then(onFulfilled, onRejected);
  }

  /** Handles a failure of the call. */
  catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.#start().catch(onRejected);
  }

  /** Runs `onFinally` once the call settles. */
  finally(onFinally?: (() => void) | null): Promise<T> {
    return this.#start().finally(onFinally);
  }

  /** `[object Promise]`-like tag for loggers and debuggers. */
  get [Symbol.toStringTag](): string {
    return 'APIPromise';
  }
}
