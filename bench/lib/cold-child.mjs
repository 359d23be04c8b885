// One cold start, in a fresh process: import the client, construct it, make the first GET, exit.
// `node bench/lib/cold-child.mjs <kind> <origin>`; the parent (cold-start.mjs) times the process.
const [kind, origin] = process.argv.slice(2);
const { makeClient } = await import('./clients.mjs');
const client = await makeClient(kind, origin);
const record = await client.get();
if (record?.id === undefined) throw new Error(`${kind}: no invoice id in the first GET`);
