/**
 * `invoices.create` serializes once: the checks read JSON.parse of the bytes that are then sent, so a
 * getter that changes between reads, a toJSON or a Proxy cannot get an invoice with no TIN past
 * them. Input that cannot be sent as JSON is an InvalidInputError and nothing is sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type InvalidInputError, isInvalidInputError, isInvoiceCheckError, type InvoiceCheckError } from '../../src/core/errors.js';
import type { Sandbox } from '../../src/testing/index.js';
import { API, envelope, http, HttpResponse, invoiceRecord, testClient, useMswServer, VALID_INPUT } from '../core/support.js';
import { clientOf, sampleInput, sends, startSandbox } from '../filing/helpers.js';

const server = useMswServer();
const TIN = VALID_INPUT.buyer.tin;

/** Answers every create, keeping each body's text as sent. */
function recordCreates(): string[] {
  const bodies: string[] = [];
  server.use(
    http.post(`${API}/invoices`, async ({ request }) => {
      bodies.push(await request.text());
      return HttpResponse.json(envelope(invoiceRecord({ id: 'inv_9' })), { status: 201 });
    }),
  );
  return bodies;
}

/** A buyer whose `tin` is there on the first `reads` reads only. */
function fadingBuyer(reads: number) {
  let count = 0;
  return {
    buyer: {
      type: 'B2B' as const,
      name: 'Acme Ltd',
      get tin(): string | undefined {
        count += 1;
        return count <= reads ? TIN : undefined;
      },
    },
    reads: () => count,
  };
}

describe('invoices.create serializes once', () => {
  it('sends exactly the bytes of the input it checked', async () => {
    const bodies = recordCreates();
    await testClient().invoices.create(VALID_INPUT);
    expect(bodies).toEqual([JSON.stringify(VALID_INPUT)]);
  });

  it('reads a getter once: a TIN there on the first read only is checked and sent', async () => {
    const bodies = recordCreates();
    const { buyer, reads } = fadingBuyer(1);
    await testClient().invoices.create({ ...VALID_INPUT, buyer }, { checkOptions: { strict: true } });
    expect(reads()).toBe(1);
    expect(JSON.parse(bodies[0]!).buyer.tin).toBe(TIN);
  });

  it('refuses, sending nothing, when the one read gives no TIN, whatever later reads would give', async () => {
    const bodies = recordCreates();
    let count = 0;
    const buyer = {
      type: 'B2B' as const,
      get tin(): string | undefined {
        count += 1;
        return count === 1 ? undefined : TIN;
      },
    };
    const error = await testClient().invoices.create({ ...VALID_INPUT, buyer }).catch((e: unknown) => e);
    expect(isInvoiceCheckError(error)).toBe(true);
    expect((error as InvoiceCheckError).report.errors.map((i) => i.code)).toContain('BUYER_TIN_MISSING');
    expect(bodies).toHaveLength(0);
  });

  it('calls toJSON once: what it returns the first time is what is checked and sent', async () => {
    const bodies = recordCreates();
    let calls = 0;
    const input = {
      toJSON() {
        calls += 1;
        return calls === 1 ? VALID_INPUT : { ...VALID_INPUT, buyer: { type: 'B2B' } };
      },
    };
    await testClient().invoices.create(input as never);
    expect(calls).toBe(1);
    expect(JSON.parse(bodies[0]!).buyer.tin).toBe(TIN);
  });

  it('cannot be fooled by a Proxy that shows the TIN to the checks and hides it on the wire', async () => {
    const bodies = recordCreates();
    let gets = 0;
    const buyer = new Proxy(
      { type: 'B2B', name: 'Acme Ltd', tin: TIN } as Record<string, unknown>,
      {
        get(target, key, receiver) {
          if (key === 'tin') gets += 1;
          return key === 'tin' && gets > 1 ? undefined : Reflect.get(target, key, receiver);
        },
      },
    );
    await testClient().invoices.create({ ...VALID_INPUT, buyer } as never);
    expect(gets).toBe(1);
    expect(JSON.parse(bodies[0]!).buyer.tin).toBe(TIN);
  });

  it.each([
    ['a cycle', () => {
      const line: Record<string, unknown> = { ...VALID_INPUT.lines[0] };
      line.self = line;
      return { ...VALID_INPUT, lines: [line] };
    }, ['lines', 0, 'self'], /cyclic/],
    ['a BigInt', () => ({ ...VALID_INPUT, lines: [{ ...VALID_INPUT.lines[0], quantity: 10n }] }), ['lines', 0, 'quantity'], /BigInt/],
    ['a Map', () => ({ ...VALID_INPUT, extra: new Map([['a', 1]]) }), ['extra'], /Map/],
    ['nesting 65 levels deep', () => {
      let deep: unknown = 'x';
      for (let i = 0; i < 64; i++) deep = { a: deep };
      return { ...VALID_INPUT, extra: deep };
    }, undefined, /nested more than 64 levels/],
    ['nesting 100,000 levels deep', () => {
      let deep: unknown = 'x';
      for (let i = 0; i < 100_000; i++) deep = [deep];
      return { ...VALID_INPUT, extra: deep };
    }, undefined, /nested more than 64 levels/],
  ])('turns %s into an InvalidInputError naming the field, sending nothing (checks on or off)', async (_label, build, path, message) => {
    const bodies = recordCreates();
    for (const skipChecks of [false, true]) {
      const error = await testClient().invoices.create(build() as never, { skipChecks }).catch((e: unknown) => e);
      expect(isInvalidInputError(error)).toBe(true);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toMatch(/Nothing was sent/);
      if (path !== undefined) expect((error as InvalidInputError).path).toEqual(path);
      else expect((error as InvalidInputError).path?.slice(0, 2)).toEqual(['extra', expect.anything()]);
    }
    expect(bodies).toHaveLength(0);
  });

  it('turns a getter that throws into an InvalidInputError, sending nothing', async () => {
    const bodies = recordCreates();
    const buyer = {
      type: 'B2B',
      get tin(): string {
        throw new Error('vault locked');
      },
    };
    const error = await testClient().invoices.create({ ...VALID_INPUT, buyer } as never).catch((e: unknown) => e);
    expect(isInvalidInputError(error)).toBe(true);
    expect((error as Error).message).toMatch(/vault locked/);
    expect(bodies).toHaveLength(0);
  });

  it('sends an object shared by two lines (not a cycle)', async () => {
    const bodies = recordCreates();
    const shared = VALID_INPUT.lines[0]!;
    await testClient().invoices.create({ ...VALID_INPUT, lines: [shared, shared] });
    expect(JSON.parse(bodies[0]!).lines).toHaveLength(2);
  });
});

describe('invoices.createAndFile and fileMany check what they send', () => {
  let sandbox: Sandbox;
  afterEach(() => sandbox.close());

  it('files the TIN a fading getter showed the checks (strict), never an invoice without it', async () => {
    sandbox = await startSandbox();
    const { buyer, reads } = fadingBuyer(1);
    const input = { ...sampleInput(sandbox), buyer };

    const { invoice } = await clientOf(sandbox).invoices.createAndFile(input, { checkOptions: { strict: true } });

    expect(reads()).toBe(1);
    expect(invoice.status).toBe('SUBMITTED');
    expect((sends(sandbox, 'create')[0]!.body as { buyer: { tin?: string } }).buyer.tin).toBe(TIN);
  });

  it('refuses, filing nothing, a Proxy that hides the TIN on the first read', async () => {
    sandbox = await startSandbox();
    let gets = 0;
    const buyer = new Proxy({ type: 'B2B', tin: TIN } as Record<string, unknown>, {
      get(target, key, receiver) {
        if (key === 'tin') gets += 1;
        return key === 'tin' && gets === 1 ? undefined : Reflect.get(target, key, receiver);
      },
    });

    const error = await clientOf(sandbox).invoices.createAndFile({ ...sampleInput(sandbox), buyer } as never).catch((e: unknown) => e);

    // Every stop of createAndFile is a FilingError; the checks' error is its cause.
    expect(isInvoiceCheckError((error as Error).cause)).toBe(true);
    expect(sends(sandbox, 'create')).toHaveLength(0);
  });

  it('rejects a cyclic input with InvalidInputError before anything is sent', async () => {
    sandbox = await startSandbox();
    const input = sampleInput(sandbox) as unknown as Record<string, unknown>;
    input.self = input;
    const error = await clientOf(sandbox).invoices.createAndFile(input as never).catch((e: unknown) => e);
    expect(isInvalidInputError((error as Error).cause)).toBe(true);
    expect(sandbox.requests).toHaveLength(0);
  });

  it('files each input of fileMany from its plain copy, and reports an unsendable one on its own', async () => {
    sandbox = await startSandbox();
    const { buyer } = fadingBuyer(1);
    const cyclic = sampleInput(sandbox, 3) as unknown as Record<string, unknown>;
    cyclic.self = cyclic;

    const results = await clientOf(sandbox).invoices.fileMany([{ ...sampleInput(sandbox, 1), buyer }, cyclic as never, sampleInput(sandbox, 2)], {
      skipChecks: true,
    });

    // The cyclic one stops on its own (its key cannot be derived from its content); the others are filed.
    expect(results.map((r) => r.ok)).toEqual([true, false, true]);
    expect(sends(sandbox, 'create').map((r) => (r.body as { buyer: { tin?: string } }).buyer.tin)).toEqual([TIN, '20456789-0001']);
  });
});
