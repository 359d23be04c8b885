/**
 * Rotating an API key.
 *
 * The service has no rotate endpoint: rotation is creating a replacement from a signed-in session,
 * and creating a key immediately revokes the existing key of the same type (here: LIVE USER).
 * Every process still holding the old key gets 401 from that moment, so the new secret must reach
 * them right away. This script:
 *   1. creates the replacement with an explicit scopes list (left out, the service grants `*`),
 *   2. hands the secret to your secret store,
 *   3. checks that the new key works,
 *   4. checks that the old key is refused, and revokes it itself if the service has not.
 * It never prints a secret.
 *
 * Environment:
 *   INVOICING_BASE_URL       origin of the service
 *   INVOICING_SESSION_TOKEN  a signed-in portal session (key routes never accept a key)
 *   INVOICING_API_KEY        the current LIVE USER key, the one being replaced
 *   INVOICING_SECRET_FILE    optional: where this example writes the new secret (mode 600);
 *                            replace saveSecret() with your secret manager
 *
 * Run it against the embedded sandbox from a clone: npm run examples -- rotate-api-key
 */
import { writeFileSync } from 'node:fs';
import { InvoicingClient, isAuthenticationError, type APIKey, type APIKeyScope } from 'invoicing-sdk';

const SCOPES: APIKeyScope[] = ['invoices:read', 'invoices:write', 'taxauth:read'];

function requireEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`Set ${name} (see the header of this file).`);
  return value;
}

/** Puts the new secret where your processes read it. Here: a file, if asked for. */
async function saveSecret(name: string, value: string): Promise<void> {
  const file = process.env.INVOICING_SECRET_FILE;
  if (file) writeFileSync(file, `${name}=${value}\n`, { mode: 0o600 });
}

/** Whether `apiKey` is accepted, by making the cheapest authenticated read. */
async function keyWorks(apiKey: string): Promise<boolean> {
  try {
    await new InvoicingClient({ apiKey, maxRetries: 0 }).invoices.list({ limit: 1 });
    return true;
  } catch (err) {
    if (isAuthenticationError(err)) return false;
    throw err;
  }
}

async function main(): Promise<void> {
  const oldKey = requireEnv('INVOICING_API_KEY');
  // A client with the session token: the only credential the /api-key routes accept.
  const admin = new InvoicingClient({ sessionToken: requireEnv('INVOICING_SESSION_TOKEN') });

  const before: APIKey[] = await admin.apiKeys.list();
  console.log(`Keys before rotation: ${before.length}`);
  for (const key of before) console.log(`  ${key.id}  ${key.type} ${key.keyableType}  ${key.name ?? ''}`);

  const created = await admin.apiKeys.create({
    name: `billing-worker ${new Date().toISOString().slice(0, 10)}`,
    type: 'LIVE',
    keyableType: 'USER',
    scopes: SCOPES,
  });
  // The creation response is one place the secret appears; reveal(id) is the other.
  const secret = created.key ?? (created.id === undefined ? undefined : (await admin.apiKeys.reveal(created.id)).key);
  if (secret === undefined) throw new Error('The service returned no secret for the new key.');
  await saveSecret('INVOICING_API_KEY', secret);
  console.log(`Created ${created.id} with scopes ${SCOPES.join(', ')}; secret handed to the secret store.`);

  if (!(await keyWorks(secret))) throw new Error('The new key is refused; keep the old one and investigate.');
  console.log('New key: accepted.');

  if (await keyWorks(oldKey)) {
    // Not what the service documents, but cheap to handle: find the old key by its secret, revoke it.
    for (const key of before) {
      if (key.id === undefined || key.type !== 'LIVE' || key.keyableType !== 'USER') continue;
      if ((await admin.apiKeys.reveal(key.id)).key === oldKey) await admin.apiKeys.revoke(key.id);
    }
    if (await keyWorks(oldKey)) throw new Error('The old key still works after revoking it.');
    console.log('Old key: was still active; revoked it.');
  } else {
    console.log('Old key: refused with 401 (the service revoked it when the new key was created).');
  }
  console.log('Rotation done: restart or reload every process that used the old key now.');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
