// One import, in a fresh process: `node bench/lib/import-child.mjs <what>`, timed by cold-start.mjs.
// `deps` imports ky, zod and uuid (the copies the SDK resolves); `sdk` the package's main entry;
// `check` its check entry; `none` nothing (the cost of a Node process).
const IMPORTS = {
  none: [],
  deps: ['ky', 'zod', 'uuid'],
  sdk: ['invoicing-sdk'],
  check: ['invoicing-sdk/check'],
};
for (const specifier of IMPORTS[process.argv[2]]) await import(specifier);
