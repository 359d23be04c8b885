/**
 * The key minted for a POST without one. Its own module, apart from `deriveIdempotencyKey`: every
 * client reaches this one (the transport mints keys), while UUID v5 and its SHA-1 are needed only
 * where keys are derived, and a bundle of the lite client should not carry them.
 */
import { v7 as uuidv7 } from 'uuid';

/** A fresh key for one logical call: a UUID v7 (time-ordered, so keys sort by creation in logs). */
export function mintIdempotencyKey(): string {
  return uuidv7();
}
