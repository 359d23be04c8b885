import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Some suites read the built package (dist/*.d.ts): build it once if it is missing or stale.
    globalSetup: ['scripts/test/build-dist.mjs'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
