/**
 * Rotating an API key with `client.apiKeys.rotate()`.
 *
 * The service has no rotate endpoint: rotation is creating a replacement from a signed-in session,
 * and creating a key revokes the existing key of the same type (here: LIVE USER) at that moment.
 * `rotate()` creates the new key and switches this client to it at once: calls this client makes
 * while it runs wait for it, and every call after it uses the new key. Every OTHER process still
 * holding the old key gets 401 from that moment, so the new secret must reach them right away.
 * This script:
 *   1. rotates with an explicit scopes list (left out, the service would grant `*`),
 *   2. hands the new secret to your secret store,
 *   3. checks that this client carries on with the new key,
 *   4. checks that the old key is refused (as another process holding it would see).
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
import { InvoicingClient, isAuthenticationError, type APIKeyScope } from 'invoicing-sdk';

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

/** Whether `apiKey` is accepted, as another process holding it would find out. */
async function keyWorks(apiKey: string): Promise<boolean> {
  try {
    await new InvoicingClient({ apiKey, maxRetries: 0, logLevel: 'error' }).invoices.list({ limit: 1 });
    return true;
  } catch (err) {
    if (isAuthenticationError(err)) return false;
    throw err;
  }
}

async function main(): Promise<void> {
  const oldKey = requireEnv('INVOICING_API_KEY');
  // Both credentials: the API key for invoices, the session token for the /api-key routes.
  const client = new InvoicingClient({ apiKey: oldKey, sessionToken: requireEnv('INVOICING_SESSION_TOKEN') });

  const before = await client.apiKeys.list();
  console.log(`Keys before rotation: ${before.length}`);
  for (const key of before) console.log(`  ${key.id}  ${key.type} ${key.keyableType}  ${key.name ?? ''}`);

  // Revokes the current LIVE USER key at once; this client switches to the new one.
  const created = await client.apiKeys.rotate({
    name: `billing-worker ${new Date().toISOString().slice(0, 10)}`,
    type: 'LIVE',
    keyableType: 'USER',
    scopes: SCOPES,
  });
  await saveSecret('INVOICING_API_KEY', created.key);
  console.log(`Created ${created.id} with scopes ${SCOPES.join(', ')}; secret handed to the secret store.`);

  // No new client needed: this one already sends the new key.
  await client.invoices.list({ limit: 1 });
  console.log('New key: accepted.');

  if (await keyWorks(oldKey)) {
    throw new Error('The old key still works: the service did not revoke it. Revoke it with apiKeys.revoke(id).');
  }
  console.log('Old key: refused with 401 (the service revoked it when the new key was created).');
  console.log('Rotation done: restart or reload every other process that used the old key now.');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
