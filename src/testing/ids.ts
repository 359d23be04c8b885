/** Identifiers and secrets the sandbox hands out: random, prefixed so a glance tells them apart. */

function randomHex(bytes: number): string {
  const buf = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(buf);
  let out = '';
  for (const b of buf) out += b.toString(16).padStart(2, '0');
  return out;
}

/** A record id such as `inv_3f9a…` (12 random bytes). */
export function newId(prefix: string): string {
  return `${prefix}_${randomHex(12)}`;
}

/** An API key secret for `type` (`LIVE` gives `sk_live_…`). */
export function newKeySecret(type: string): string {
  return `sk_${type.toLowerCase()}_${randomHex(24)}`;
}

/** A session token as the portal would issue one. */
export function newSessionToken(): string {
  return `sess_${randomHex(24)}`;
}

/** A request id for `x-request-id`. */
export function newRequestId(): string {
  return `req_${randomHex(10)}`;
}
