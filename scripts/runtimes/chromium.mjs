// Chromium leg of the runtime matrix: bundles scripts/smoke/browser.mjs with esbuild (the way a
// web app would consume the package), serves it with scripts/smoke/index.html from a loopback
// page server, and drives Debian's Chromium through playwright-core. Three cases:
//   - with `dangerouslyAllowBrowser: true` the page files an invoice against the sandbox;
//   - without it the client refuses at construction and no request leaves the page;
//   - `invoicing-sdk/check`, bundled alone from scripts/smoke/browser-check.mjs with none of ky,
//     zod or uuid, reports the expected codes and totals.
// If the sandbox answers CORS preflights, the page calls it cross-origin like a real web app;
// otherwise the page server forwards /api/* to it so the page stays same-origin.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  // Without these Chromium keeps dialling Google's hosts, which this network refuses.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Bundles a page script; returns its path and the packages it holds. */
async function bundle(repoRoot, source, outfile) {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [join(repoRoot, source)],
    absWorkingDir: repoRoot,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outfile,
    sourcemap: 'inline',
    metafile: true,
    logLevel: 'error',
  });
  const packages = Object.keys(result.metafile.inputs).map((input) => input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//)?.[1]);
  return { path: outfile, packages: new Set(packages.filter(Boolean)) };
}

/** Does the sandbox let a page on `origin` send the SDK's headers cross-origin? */
async function sandboxAllowsCors(baseUrl, origin) {
  try {
    const response = await fetch(new URL('/api/v1/invoices', baseUrl), {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,idempotency-key,x-api-key',
      },
    });
    const allowOrigin = response.headers.get('access-control-allow-origin');
    const allowHeaders = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    return (
      response.ok &&
      (allowOrigin === '*' || allowOrigin === origin) &&
      (allowHeaders === '*' || ['idempotency-key', 'x-api-key', 'content-type'].every((h) => allowHeaders.includes(h)))
    );
  } catch {
    return false;
  }
}

function startPageServer({ html, bundles, sandboxUrl }) {
  const target = new URL(sandboxUrl);
  const server = createServer((req, res) => {
    if (req.url === '/' || req.url === '/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    } else if (bundles[req.url] !== undefined) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(readFileSync(bundles[req.url]));
    } else if (req.url === '/favicon.ico') {
      res.writeHead(204).end();
    } else if (req.url?.startsWith('/api/')) {
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.writeHead(502).end());
      req.pipe(upstream);
    } else {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/**
 * Runs the browser cases and returns one result per case: `{ name, ok, detail }`.
 * @param {{ repoRoot: string, chromiumPath: string, chromiumVersion: string, baseUrl: string,
 *           apiKey: string, businessId: string, timeoutMs?: number }} options
 */
export async function runChromium(options) {
  const { repoRoot, chromiumPath, baseUrl, apiKey, businessId } = options;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const label = `Chromium ${options.chromiumVersion.replace(/^Chromium\s+/, '').split(' ')[0]}`;
  const results = [];
  const notes = [];
  let server;
  let context;
  const userDataDir = mkdtempSync(join(tmpdir(), 'invoicing-sdk-chromium-'));
  const outDir = mkdtempSync(join(tmpdir(), 'invoicing-sdk-browser-smoke-'));
  const checkName = `${label} (invoicing-sdk/check)`;
  try {
    const sdkBundle = await bundle(repoRoot, 'scripts/smoke/browser.mjs', join(outDir, 'browser-bundle.js'));
    const checkBundle = await bundle(repoRoot, 'scripts/smoke/browser-check.mjs', join(outDir, 'check-bundle.js'));
    const html = readFileSync(join(repoRoot, 'scripts/smoke/index.html'), 'utf8');
    const bundles = { '/browser-bundle.js': sdkBundle.path, '/check-bundle.js': checkBundle.path };
    server = await startPageServer({ html, bundles, sandboxUrl: baseUrl });
    const pageOrigin = `http://127.0.0.1:${server.address().port}`;
    const direct = await sandboxAllowsCors(baseUrl, pageOrigin);
    const apiBase = direct ? baseUrl : pageOrigin;
    notes.push(direct ? 'cross-origin to the sandbox (CORS)' : 'same-origin proxy to the sandbox (no CORS from it)');

    const { chromium } = await import('playwright-core');
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: chromiumPath,
      headless: true,
      args: CHROMIUM_ARGS,
      timeout: timeoutMs,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(timeoutMs);
    const consoleErrors = [];
    page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
    page.on('pageerror', (error) => consoleErrors.push(String(error)));
    const apiRequests = [];
    page.on('request', (req) => req.url().includes('/api/') && apiRequests.push(`${req.method()} ${req.url()}`));

    await page.goto(`${pageOrigin}/index.html`);
    await page.waitForFunction(() => window.smokeReady === true && window.smokeCheckReady === true);
    const settings = { baseUrl: apiBase, apiKey, businessId };

    // Guard first: no request may leave the page when the client refuses to be built.
    try {
      const guard = await page.evaluate((s) => window.smokeGuard(s), settings);
      const problems = [];
      if (!guard.threw) problems.push('the client was constructed in a browser without dangerouslyAllowBrowser');
      else {
        if (!guard.isInvoicingError) problems.push(`threw ${guard.name}, not an InvoicingError`);
        // The way out must be spelled out where users look: the message or the hint.
        if (!/dangerouslyAllowBrowser/.test(`${guard.message} ${guard.hint ?? ''}`)) {
          problems.push(`neither message nor hint names dangerouslyAllowBrowser: ${guard.message} ${guard.hint ?? ''}`);
        }
        if (guard.leaksKey) problems.push('the error contains the API key');
      }
      if (apiRequests.length > 0) problems.push(`requests were sent: ${apiRequests.join(', ')}`);
      results.push({
        name: `${label} (browser guard)`,
        ok: problems.length === 0,
        detail:
          problems.length === 0
            ? `refused at construction, no request sent: ${guard.name}: ${guard.message} (hint: ${guard.hint})`
            : problems.join('; '),
      });
    } catch (error) {
      results.push({ name: `${label} (browser guard)`, ok: false, detail: String(error?.message ?? error) });
    }

    try {
      const summary = await page.evaluate((s) => window.smokeAllowed(s), settings);
      results.push({ name: `${label} (dangerouslyAllowBrowser)`, ok: true, detail: `${summary} [${notes.join('; ')}]` });
    } catch (error) {
      const extra = consoleErrors.length ? `\n    page console: ${consoleErrors.join('\n    page console: ')}` : '';
      results.push({ name: `${label} (dangerouslyAllowBrowser)`, ok: false, detail: `${error?.message ?? error} [${notes.join('; ')}]${extra}` });
    }

    try {
      const leaked = ['ky', 'zod', 'uuid'].filter((dep) => checkBundle.packages.has(dep));
      if (leaked.length) throw new Error(`the check bundle holds ${leaked.join(', ')}`);
      const summary = await page.evaluate(() => window.smokeCheck());
      results.push({ name: checkName, ok: true, detail: `${summary}; bundle without ky, zod or uuid` });
    } catch (error) {
      results.push({ name: checkName, ok: false, detail: String(error?.message ?? error) });
    }
  } catch (error) {
    for (const name of [`${label} (browser guard)`, `${label} (dangerouslyAllowBrowser)`, checkName]) {
      if (!results.some((r) => r.name === name)) results.push({ name, ok: false, detail: String(error?.stack ?? error) });
    }
  } finally {
    await context?.close().catch(() => {});
    server?.close();
    rmSync(userDataDir, { recursive: true, force: true });
    rmSync(outDir, { recursive: true, force: true });
  }
  return results;
}
