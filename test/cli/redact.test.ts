/**
 * CLI output is scrubbed of the credentials a run uses: one Redactor per run, every stdout and
 * stderr write goes through it. The service's messages are scrubbed by the client already; what
 * only the CLI can catch is text from files (a key pasted into a field is quoted back by the
 * checks) and anything printed around the client.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { run as check } from '../../src/cli/check.js';
import { redactedOutput, type CliContext } from '../../src/cli/context.js';
import { run as file } from '../../src/cli/file.js';
import { Redactor } from '../../src/core/redact.js';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import { tempFiles } from './helpers.js';

const KEY = 'sk_live_CliEchoKey9Rq7Zx9Wv2Lp8Nd5';
const bodyOf = (key: string): string => key.replace(/^(?:[a-z]{1,8}[_-]){1,3}/, '');

function context(cwd: string, argv: string[], env: Record<string, string | undefined>) {
  let stdout = '';
  let stderr = '';
  const ctx: CliContext = {
    argv,
    cwd,
    env,
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    readStdin: async () => '',
  };
  return { ctx, out: () => stdout + stderr };
}

/** An invoice whose fields hold `key` (pasted by mistake): the checks quote each value back. */
function pasted(businessId: string, key: string) {
  return {
    businessId,
    buyer: { type: key, tin: '20456789-0001', name: 'Buyer' },
    dueDate: `${key.slice(0, 20)}`,
    lines: [{ description: 'Consulting', quantity: `${key.slice(3)}`, unitPrice: 150, taxRate: 7.5, isicCode: key }],
  };
}

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('cli (redaction of what it prints)', () => {
  it.each(['text', 'json', 'github'])('check --format %s prints no part of the key in the environment', async (format) => {
    const files = tempFiles({ 'a.json': JSON.stringify(pasted('biz_1', KEY)), 'b.ndjson': `{"businessId": ${KEY}}\n` });
    cleanup = files.cleanup;
    // Without the key in the environment the checks quote it: there is something to scrub.
    const bare = context(files.dir, ['--format', format, 'a.json', 'b.ndjson'], {});
    expect(await check(bare.ctx)).toBe(1);
    expect(bare.out()).toContain(bodyOf(KEY));

    const run = context(files.dir, ['--format', format, 'a.json', 'b.ndjson'], { INVOICING_API_KEY: KEY, GITHUB_WORKSPACE: files.dir });
    expect(await check(run.ctx)).toBe(1);
    expect(run.out()).toContain('[REDACTED]');
    expect(run.out()).not.toContain(bodyOf(KEY));
    expect(run.out()).not.toContain(KEY.slice(0, 16));
    expect(run.out()).toContain('BUYER_TYPE_INVALID');
  });

  describe('file', () => {
    let sandbox: Sandbox;
    afterEach(async () => sandbox.close());

    it('prints no part of the key it files with, whatever the files hold', async () => {
      sandbox = await createSandbox();
      const files = tempFiles({ 'a.json': JSON.stringify(pasted(sandbox.businessId, sandbox.apiKey)), [`${sandbox.apiKey}.json`]: '[' });
      cleanup = files.cleanup;
      for (const format of ['text', 'json']) {
        const run = context(files.dir, ['--format', format, '.'], { INVOICING_BASE_URL: sandbox.baseUrl, INVOICING_API_KEY: ` ${sandbox.apiKey} ` });
        expect(await file(run.ctx)).toBe(1);
        expect(run.out(), format).toContain('[REDACTED]');
        expect(run.out(), format).not.toContain(bodyOf(sandbox.apiKey));
      }
      // A name on the command line that names no file is quoted back, scrubbed.
      const missing = context(files.dir, [`${sandbox.apiKey}-nothing.json`], { INVOICING_BASE_URL: sandbox.baseUrl, INVOICING_API_KEY: sandbox.apiKey });
      expect(await file(missing.ctx)).toBe(2);
      expect(missing.out()).toContain('cannot read [REDACTED]');
      expect(missing.out()).not.toContain(bodyOf(sandbox.apiKey));
      expect(sandbox.invoices.count).toBe(0);
    });
  });

  it('a scrubbed output keeps what the progress bar and colours read from the terminal', () => {
    let written = '';
    const tty = { write: (t: string) => (written += t), isTTY: true, columns: 120 };
    const out = redactedOutput(tty, new Redactor([KEY]));
    out.write(`key ${KEY.slice(8, 30)}\n`);
    expect(written).toBe('key [REDACTED]\n');
    expect(out.isTTY).toBe(true);
    tty.columns = 80;
    expect(out.columns).toBe(80);
  });
});
