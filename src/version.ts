/**
 * The version of this SDK (kept equal to package.json's by a test).
 *
 * @example
 * ```ts
 * import { VERSION } from 'invoicing-sdk';
 * console.log(`invoicing-sdk ${VERSION}`);
 * ```
 */
export const VERSION = '0.1.0';
