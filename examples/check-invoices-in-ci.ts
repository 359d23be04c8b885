/**
 * Checking a folder of invoices in CI, before anything is sent.
 *
 * The tax authority stops at the first problem and silently accepts some mistakes (a placeholder
 * TIN, a service code padded to look like a goods code, a total that contradicts its lines).
 * `checkInvoice()` reports every problem at once, offline, so a CI job can refuse a bad batch
 * before it is filed. This script checks every *.json file under a folder (one invoice or an array
 * of them, at any depth) and exits 1 when any invoice has errors. On GitHub Actions it also prints
 * workflow annotations, so problems show up on the pull request.
 *
 * The same gate without writing code: npx invoicing check invoices/ --strict --format github
 *
 * Usage: node --import ./scripts/examples-loader.mjs examples/check-invoices-in-ci.ts [folder] [--strict]
 * (default folder: examples/invoices). No network and no credentials are needed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkInvoice, formatIssuePath, type CheckIssue } from 'invoicing-sdk';

/** Every *.json file under `dir`, skipping node_modules and dot-folders. */
function jsonFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name.startsWith('.') ? [] : jsonFiles(path);
    return entry.isFile() && entry.name.endsWith('.json') ? [path] : [];
  });
}

function annotate(level: 'error' | 'warning', file: string, issue: CheckIssue, where: string): void {
  // GitHub reads `::error file=…::message` lines from the log and pins them to the file.
  const text = `${where} ${issue.code}: ${issue.message}${issue.hint ? ` ${issue.hint}` : ''}`.replace(/\r?\n/g, ' ');
  console.log(`::${level} file=${file},title=${issue.code}::${text}`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const strict = args.includes('--strict');
  const folder = args.find((a) => !a.startsWith('--')) ?? fileURLToPath(new URL('./invoices', import.meta.url));
  const github = process.env.GITHUB_ACTIONS === 'true';

  let invoices = 0;
  let errors = 0;
  let warnings = 0;
  for (const path of jsonFiles(folder).sort()) {
    const file = relative(process.cwd(), path);
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      console.log(`${file}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
      errors += 1;
      continue;
    }
    const batch = Array.isArray(parsed) ? parsed : [parsed];
    batch.forEach((invoice, i) => {
      invoices += 1;
      const where = Array.isArray(parsed) ? `${file} [${i}]` : file;
      const report = checkInvoice(invoice, { strict });
      for (const issue of report.errors) {
        console.log(`${where}  error    ${formatIssuePath(issue.path)}  ${issue.code}: ${issue.message}`);
        if (github) annotate('error', file, issue, where);
      }
      for (const issue of report.warnings) {
        console.log(`${where}  warning  ${formatIssuePath(issue.path)}  ${issue.code}: ${issue.message}`);
        if (github) annotate('warning', file, issue, where);
      }
      errors += report.errors.length;
      warnings += report.warnings.length;
      if (report.ok && report.totals) console.log(`${where}  ok  total ${report.totals.total}`);
    });
  }

  console.log(`\n${invoices} invoice(s) checked: ${errors} error(s), ${warnings} warning(s).`);
  if (invoices === 0) {
    console.log(`No invoices found under ${folder}.`);
    process.exitCode = 1;
  } else if (errors > 0) {
    process.exitCode = 1;
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
