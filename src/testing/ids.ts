// Random, prefixed so a glance tells them apart.

function randomHex(bytes: number): string {
  const buf = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(buf);
  let out = '';
  for (const b of buf) out += b.toString(16).padStart(2, '0');
  return out;
}

export function newId(prefix: string): string {
  return `${prefix}_${randomHex(12)}`;
}

export function newKeySecret(type: string): string {
  return `sk_${type.toLowerCase()}_${randomHex(24)}`;
}

export function newSessionToken(): string {
  return `sess_${randomHex(24)}`;
}

export function newRequestId(): string {
  return `req_${randomHex(10)}`;
}
