// Browser entry of the `invoicing-sdk/check` smoke, bundled on its own by scripts/runtimes/chromium.mjs
// (which asserts that the bundle holds none of ky, zod or uuid) and loaded by scripts/smoke/index.html:
// the checks a web form runs without the client.
import * as check from 'invoicing-sdk/check';
import { EXPECTED_CHECK_CODES, runChecks } from './smoke-core.mjs';

window.smokeCheck = () => {
  const totals = runChecks(check, 'biz_smoke');
  return `check codes ${EXPECTED_CHECK_CODES.join(', ')}; total ${totals.total}; ${check.HS_CODES.size} HS and ${check.ISIC_CODES.size} ISIC codes`;
};

window.smokeCheckReady = true;
