import type { ClientOptions } from './core/options.js';
import type { ResourceContext } from './core/resource.js';
import { InvoicingLiteClient } from './lite-client.js';
import { APIKeys } from './resources/api-keys.js';
import { Codes } from './resources/codes.js';
import { Invoices } from './resources/invoices.js';

/**
 * The client of the invoicing service. Options are resolved once, here, from the defaults table and
 * the environment (`INVOICING_API_KEY`, `INVOICING_SESSION_TOKEN`, `INVOICING_BASE_URL`,
 * `INVOICING_LOG`); per-call options override them for one call.
 *
 * `client.invoices.create()` always runs `checkInvoice()` first, and `client.invoices` carries the
 * filing workflow (`waitFor`, `createAndFile`, `resumeFiling`, `fileMany`). For the smallest bundle,
 * `InvoicingLiteClient` from `invoicing-sdk/lite` is this client without those, `apiKeys` and
 * `codes`.
 *
 * The credentials are kept private: they never appear in `JSON.stringify(client)`, `util.inspect`,
 * log lines or errors.
 *
 * @example
 * ```ts
 * import { InvoicingClient } from 'invoicing-sdk';
 *
 * const client = new InvoicingClient({ baseUrl: 'https://invoicing.example.com' }); // key from env
 * const draft = await client.invoices.create(input);
 * for await (const invoice of client.invoices.list({ status: 'Submitted' })) console.log(invoice.id);
 * ```
 */
export class InvoicingClient extends InvoicingLiteClient {
  /** Invoices: create (checked locally first), retrieve, list, validate, sign, submit, and filing. */
  declare readonly invoices: Invoices;
  /** API keys, over the signed-in session (`sessionToken`). */
  readonly apiKeys: APIKeys;
  /** Valid HS and ISIC codes from the service, cached in memory. */
  readonly codes: Codes;

  /**
   * Resolves the options and checks them: a missing `baseUrl`, an invalid value, or a browser-like
   * runtime without `dangerouslyAllowBrowser` throws an `InvoicingError` here.
   */
  constructor(options: ClientOptions = {}) {
    // The checks are not an option here: `create` always runs `checkInvoice` (Invoices sets it).
    super({ ...options, checkInvoice: undefined });
    const ctx = this._resourceContext();
    this.apiKeys = new APIKeys(ctx);
    this.codes = new Codes(ctx);
  }

  /** @internal */
  protected override _createInvoices(ctx: ResourceContext): Invoices {
    return new Invoices(ctx);
  }

  /** @internal */
  protected override get _label(): string {
    return 'InvoicingClient';
  }
}
