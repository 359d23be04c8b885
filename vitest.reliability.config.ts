import { defineConfig } from 'vitest/config';

/**
 * The large reliability campaigns (`npm run test:faults`, `npm run test:fuzz`), run by
 * scripts/reliability/run.mjs with `RELIABILITY_FULL=1`. The same suites run CI-sized in the default
 * config. Files run one at a time, in a process with `--expose-gc`, so the long run's heap figures
 * and the campaigns' timings are not disturbed by other suites.
 */
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    testTimeout: 60 * 60 * 1000,
    hookTimeout: 120_000,
    fileParallelism: false,
    pool: 'forks',
    execArgv: ['--expose-gc'],
  },
});
