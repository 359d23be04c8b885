/**
 * The machine reporter: one JSON document on stdout. Stable: `version` changes only if a field
 * changes meaning; fields may be added.
 */
import { safeJson } from '../escape.js';
import type { RunResult } from '../results.js';

export const JSON_REPORT_VERSION = 1;

/** Renders a run as JSON. */
export function renderJson(run: RunResult): string {
  const doc = {
    version: JSON_REPORT_VERSION,
    ok: run.exitCode === 0,
    exitCode: run.exitCode,
    summary: run.summary,
    files: run.files,
  };
  return `${safeJson(doc)}\n`;
}
