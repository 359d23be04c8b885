// Browser entry of the smoke test, bundled by esbuild (scripts/runtimes/chromium.mjs) and loaded
// by scripts/smoke/index.html in headless Chromium. The page exposes two functions that the
// runner calls through Playwright, so the browser runs the same scenario as the other runtimes.
import * as sdk from 'invoicing-sdk';
import { runSmoke } from './smoke-core.mjs';

/** Files an invoice and checks one locally, with `dangerouslyAllowBrowser: true`. */
window.smokeAllowed = (settings) => runSmoke(sdk, { ...settings, dangerouslyAllowBrowser: true });

/**
 * Constructs a client without `dangerouslyAllowBrowser` and reports what the browser guard said:
 * the SDK must refuse, before any request, because the API key would be exposed to page visitors.
 */
window.smokeGuard = (settings) => {
  try {
    new sdk.InvoicingClient({ baseUrl: settings.baseUrl, apiKey: settings.apiKey });
    return { threw: false };
  } catch (error) {
    return {
      threw: true,
      name: error?.name,
      isInvoicingError: error instanceof sdk.InvoicingError,
      message: String(error?.message),
      hint: error?.hint === undefined ? undefined : String(error.hint),
      leaksKey: [error?.message, error?.hint, String(error), JSON.stringify(error)].some((text) =>
        String(text).includes(settings.apiKey),
      ),
    };
  }
};

window.smokeReady = true;
