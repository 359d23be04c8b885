/**
 * The version of this SDK, sent in the `User-Agent`-style header. A test keeps it equal to
 * package.json's `version`.
 *
 * @example
 * ```ts
 * import { VERSION } from 'invoicing-sdk';
 * console.log(`invoicing-sdk ${VERSION}`);
 * ```
 */
export const VERSION = '0.1.0';
