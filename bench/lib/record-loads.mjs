/**
 * `node --import ./bench/lib/record-loads.mjs app.mjs` appends the URL of every module the app loads
 * to the file named by BENCH_LOADED. The bundle-size suite uses it to learn which chunks of a
 * code-split bundle one call really loads.
 */
import { register } from 'node:module';

register(new URL('./record-loads-hooks.mjs', import.meta.url));
