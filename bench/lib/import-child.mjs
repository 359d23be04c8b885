// One import, in a fresh process: `node bench/lib/import-child.mjs <specifier>...`, timed by
// cold-start.mjs; no specifier measures the cost of a process alone.
for (const specifier of process.argv.slice(2)) await import(specifier);
