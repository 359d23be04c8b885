// An option given as `undefined` is the same as one left out: `createSandbox({ port: maybePort })`
// under exactOptionalPropertyTypes (SandboxOptions says `| undefined` on every field). One row per
// option, each observing the sandbox from outside: the port it listens on, the status an accepted
// invoice reaches, the credentials it accepts, the log it keeps… A `{ ...DEFAULTS, ...options }`
// merge would fail most rows: an explicit undefined overwrites the default there.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/testing/index.js';
import { resolveOptions } from '../../src/testing/options.js';
import { caller, fileInvoice, invoiceBody, type Call } from './helpers.js';

type Probe = (sandbox: Sandbox, call: Call) => Promise<unknown>;

interface Row {
  option: keyof SandboxOptions;
  /** What the probe sees of the sandbox: must differ between the default and `other`. */
  probe: Probe;
  /** A value other than the default, to show the probe observes the option (omitted when only random values differ). */
  other?: unknown;
  /** The other options of the case (never `option` itself); default in-process, frozen clock. */
  base?: SandboxOptions;
}

const IN_PROCESS: SandboxOptions = { listen: false, msw: false, timeScale: 0 };

const open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** What `probe` sees of a sandbox created with `options`, or how creating it failed. */
async function observe(options: SandboxOptions, probe: Probe): Promise<unknown> {
  let sandbox: Sandbox;
  try {
    sandbox = await createSandbox(options);
  } catch (error) {
    return { createSandboxThrew: String(error) };
  }
  open.push(sandbox);
  // Over loopback when listening, else in-process.
  return probe(sandbox, sandbox.baseUrl.startsWith('http://127.0.0.1:') ? caller(sandbox) : caller(sandbox, sandbox.fetch));
}

async function create(call: Call, sandbox: Sandbox, body = invoiceBody(sandbox.businessId)) {
  return call('POST', '/api/v1/invoices', { body });
}

/** The status an invoice reaches once the authority has answered (default delay). */
const statusAfterAnswer: Probe = async (sandbox, call) => {
  const id = await fileInvoice(call, sandbox.businessId);
  sandbox.clock.advance(2_000);
  return sandbox.invoices.get(id)?.status;
};

const serviceLine = (overrides: Record<string, unknown>) => ({
  description: 'Setup',
  quantity: 1,
  unitPrice: 10,
  taxRate: 7.5,
  isicCode: '6201',
  ...overrides,
});

const ROWS: Row[] = [
  {
    option: 'listen',
    base: { msw: false },
    other: false,
    probe: async (sandbox, call) => ({
      host: new URL(sandbox.baseUrl).hostname,
      answers: (await call('GET', '/api/v1/invoices')).status,
    }),
  },
  {
    // Default 0: the OS picks a free port.
    option: 'port',
    base: { msw: false },
    probe: async (sandbox, call) => ({
      loopbackWithPort: /^http:\/\/127\.0\.0\.1:[1-9]\d*$/.test(sandbox.baseUrl),
      answers: (await call('GET', '/api/v1/invoices')).status,
    }),
  },
  {
    option: 'baseUrl',
    other: 'http://elsewhere.test',
    probe: async (sandbox, call) => ({ baseUrl: sandbox.baseUrl, answers: (await call('GET', '/api/v1/invoices')).status }),
  },
  {
    // Default when not listening: msw is loaded at start, so the handlers need no synchronous require.
    option: 'msw',
    base: { listen: false },
    other: false,
    probe: async (sandbox) => {
      const noSyncRequire = vi.spyOn(process, 'getBuiltinModule').mockReturnValue(undefined as never);
      try {
        return { handlers: sandbox.handlers.length };
      } catch (error) {
        return { handlersThrew: String(error) };
      } finally {
        noSyncRequire.mockRestore();
      }
    },
  },
  { option: 'scenario', other: 'offline', probe: statusAfterAnswer },
  {
    option: 'responseDelayMs',
    other: 500,
    probe: async (sandbox, call) => {
      const id = await fileInvoice(call, sandbox.businessId);
      const invoice = sandbox.invoices.get(id);
      return Date.parse(invoice?.nextChangeAt ?? '') - Date.parse(invoice?.submittedAt ?? '');
    },
  },
  { option: 'acceptedStatus', other: 'REGISTERED', probe: statusAfterAnswer },
  { option: 'rejectedStatus', base: { ...IN_PROCESS, scenario: 'rejected' }, other: 'DECLINED', probe: statusAfterAnswer },
  { option: 'processingStatus', base: { ...IN_PROCESS, processingMs: 60_000 }, other: 'IN_REVIEW', probe: statusAfterAnswer },
  { option: 'processingMs', other: 60_000, probe: statusAfterAnswer },
  {
    option: 'routes',
    other: { retrieve: false },
    probe: async (sandbox, call) => {
      const id = await fileInvoice(call, sandbox.businessId, []);
      const { status, body } = await call('GET', `/api/v1/invoices/${id}`);
      return { status, body: status === 200 ? 'the invoice' : body };
    },
  },
  {
    option: 'businessKeyDefect',
    other: false,
    probe: async (sandbox, call) => {
      const { key } = sandbox.createApiKey({ keyableType: 'BUSINESS', businessId: sandbox.businessId });
      return (await call('POST', '/api/v1/invoices', { body: invoiceBody(sandbox.businessId), apiKey: key })).status;
    },
  },
  {
    option: 'recordStyle',
    other: 'alternate',
    probe: async (sandbox, call) => Object.keys((await create(call, sandbox)).body.data).sort(),
  },
  {
    option: 'statusSpelling',
    other: 'upper',
    probe: async (sandbox, call) => (await create(call, sandbox)).body.data.status,
  },
  {
    option: 'transitionResponse',
    other: 'null',
    probe: async (sandbox, call) => {
      const id = await fileInvoice(call, sandbox.businessId, []);
      const { body } = await call('POST', `/api/v1/invoices/${id}/validate`);
      return body.data === null ? null : Object.keys(body.data).sort();
    },
  },
  {
    option: 'categoryMinLength',
    other: 2,
    probe: async (sandbox, call) =>
      (await create(call, sandbox, invoiceBody(sandbox.businessId, { lines: [serviceLine({ serviceCategory: 'ab' })] }))).status,
  },
  {
    option: 'unknownIsicCode',
    other: 'accept',
    probe: async (sandbox, call) =>
      (await create(call, sandbox, invoiceBody(sandbox.businessId, { lines: [serviceLine({ isicCode: '9999' })] }))).status,
  },
  {
    // Default 'type+keyableType': a BUSINESS key revokes the user's other BUSINESS keys, not the USER key.
    option: 'keyReplacement',
    other: 'type+keyableType+business',
    probe: async (sandbox, call) => {
      const other = sandbox.createBusiness();
      const issue = async (businessId: string): Promise<string> => {
        const res = await call('POST', '/api/v1/api-key', {
          session: sandbox.sessionToken,
          body: { name: 'k', type: 'LIVE', keyableType: 'BUSINESS', businessId },
        });
        return res.body.data.key as string;
      };
      const first = await issue(sandbox.businessId);
      await issue(other);
      return {
        firstBusinessKey: (await call('GET', '/api/v1/invoices', { apiKey: first })).status,
        userKey: (await call('GET', '/api/v1/invoices')).status,
      };
    },
  },
  {
    option: 'recoveryJobOffsetMs',
    other: 3 * 60_000,
    probe: async (sandbox, call) => {
      sandbox.setScenario('offline');
      const id = await fileInvoice(call, sandbox.businessId);
      sandbox.clock.advance(2_000);
      // Minutes past the job's 10-minute marks of its next run (0 by default).
      return new Date(sandbox.invoices.get(id)?.nextChangeAt ?? '').getUTCMinutes() % 10;
    },
  },
  {
    option: 'attemptCount',
    other: false,
    probe: async (sandbox, call) => 'attempts' in (await create(call, sandbox)).body.data,
  },
  {
    option: 'now',
    other: '2020-01-01T00:00:00Z',
    probe: async (sandbox) => Math.abs(sandbox.clock.now() - Date.now()) < 60_000,
  },
  {
    option: 'timeScale',
    base: { listen: false, msw: false },
    other: 0,
    probe: async (sandbox) => {
      const atStart = sandbox.clock.timeScale;
      sandbox.reset(); // back to the option's scale
      return [atStart, sandbox.clock.timeScale];
    },
  },
  {
    option: 'totals',
    other: () => ({ subtotal: '1.00', tax: '0.00', total: '1.00' }),
    probe: async (sandbox, call) => (await create(call, sandbox)).body.data.totalAmount,
  },
  {
    option: 'totalsRounding',
    other: 'invoice',
    // 3 × 0.07 at 7.5 %: tax 0.03 rounded per line, 0.02 per invoice.
    probe: async (sandbox, call) =>
      (await create(call, sandbox, { ...invoiceBody(sandbox.businessId), lines: [1, 2, 3].map(() => serviceLine({ unitPrice: 0.07 })) })).body.data
        .totalAmount,
  },
  {
    option: 'apiKey',
    other: 'sk_live_fixed_for_the_test',
    probe: async (sandbox, call) => ({
      fixed: sandbox.apiKey === 'sk_live_fixed_for_the_test',
      generated: /^sk_live_[0-9a-f]{48}$/.test(sandbox.apiKey),
      accepted: (await call('GET', '/api/v1/invoices')).status,
    }),
  },
  {
    option: 'sessionToken',
    other: 'sess_fixed_for_the_test',
    probe: async (sandbox, call) => ({
      fixed: sandbox.sessionToken === 'sess_fixed_for_the_test',
      generated: /^sess_[0-9a-f]{48}$/.test(sandbox.sessionToken),
      accepted: (await call('GET', '/api/v1/api-key', { session: sandbox.sessionToken })).status,
    }),
  },
  {
    option: 'businessId',
    other: 'biz_fixed_for_the_test',
    probe: async (sandbox, call) => ({
      fixed: sandbox.businessId === 'biz_fixed_for_the_test',
      generated: /^biz_/.test(sandbox.businessId),
      accepted: (await create(call, sandbox)).status,
    }),
  },
  {
    option: 'apiDocs',
    other: 'none',
    probe: async (_sandbox, call) => [(await call('GET', '/api/docs')).status, (await call('GET', '/api/docs-json')).status],
  },
  {
    option: 'apiDescription',
    other: (description: Record<string, unknown>) => ({ ...description, info: { title: 'Edited', version: 'v1' } }),
    probe: async (_sandbox, call) => (await call('GET', '/api/docs-json')).body.info.title,
  },
  {
    option: 'totalField',
    other: 'grandTotal',
    probe: async (sandbox, call) => Object.keys((await create(call, sandbox)).body.data).filter((k) => /total/i.test(k)),
  },
  {
    option: 'apiKeyType',
    other: 'BUSINESS',
    probe: async (sandbox, call) => (await create(call, sandbox)).status,
  },
  {
    option: 'requestLogLimit',
    other: 1_000,
    probe: async (sandbox, call) => {
      await call('GET', '/api/v1/invoices');
      // Past the default limit of 100 000. Through the log itself: as many real requests take ~20 s.
      const log = (sandbox as unknown as { handler: { log: unknown[] } }).handler.log;
      const entry = sandbox.requests[0];
      for (let i = 0; i < 100_000; i++) log.push(entry);
      await call('GET', '/api/v1/invoices');
      return sandbox.requests.length;
    },
  },
];

describe('testing/createSandbox: an option given as undefined is the same as one left out', () => {
  it.each(ROWS)('$option', async (row) => {
    const { option, probe, base = IN_PROCESS } = row;
    expect(base).not.toHaveProperty(option);
    const omitted = await observe(base, probe);
    expect(omitted).not.toHaveProperty('createSandboxThrew');
    expect(await observe({ ...base, [option]: undefined }, probe)).toEqual(omitted);
    if ('other' in row) expect(await observe({ ...base, [option]: row.other }, probe)).not.toEqual(omitted);
  });

  it('has a row for every option, and resolves each one given as undefined to its default', () => {
    const defaults = resolveOptions({});
    const options = Object.keys(defaults) as (keyof SandboxOptions)[];
    expect(ROWS.map((r) => r.option).sort()).toEqual([...options].sort());
    for (const option of options) {
      expect({ option, resolved: resolveOptions({ [option]: undefined }) }).toEqual({ option, resolved: defaults });
    }
    expect(resolveOptions(Object.fromEntries(options.map((o) => [o, undefined])))).toEqual(defaults);
  });
});

describe('testing/sandbox.client(): an option given as undefined keeps the sandbox’s value', () => {
  const cases = ['baseUrl', 'apiKey', 'sessionToken', 'fetch'] as const;

  it.each(cases)('%s', async (option) => {
    const sandbox = await createSandbox(IN_PROCESS);
    open.push(sandbox);
    const use = async (client: ReturnType<Sandbox['client']>) => {
      try {
        const draft = await client.invoices.create(invoiceBody(sandbox.businessId) as never);
        const keys = await client.apiKeys.list();
        return { created: draft.status, keys: keys.length };
      } catch (error) {
        return { threw: String(error) };
      }
    };
    const omitted = await use(sandbox.client({ maxRetries: 0, logLevel: 'error' }));
    expect(omitted).toEqual({ created: 'DRAFT', keys: 1 });
    expect(await use(sandbox.client({ maxRetries: 0, logLevel: 'error', [option]: undefined }))).toEqual(omitted);
  });
});
