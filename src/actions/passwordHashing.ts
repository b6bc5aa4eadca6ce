import { loadConfig } from "../config";

/**
 * Passwords are kept as argon2id hashes (Bun's defaults: 64 MiB and 2 passes, about 100 ms of
 * CPU each), so that a stolen database costs an attacker that much per guess. A hash names its
 * own cost, so verifying follows whatever cost a hash was made with.
 *
 * A test suite makes and checks thousands of them; PARLEY_TEST_ONLY_WEAK_PASSWORD_HASHING=1
 * makes new hashes at argon2id's lowest cost (1 MiB, 1 pass) instead. It is never right for a
 * server people use, and the server says so in its log at start.
 */
const WEAK = { algorithm: "argon2id", memoryCost: 1024, timeCost: 1 } as const;
const STANDARD = { algorithm: "argon2id" } as const;

let weak: boolean | undefined;

/** Whether new hashes are made at the lowest cost (read from the configuration once). */
const weakPasswordHashing = () => (weak ??= loadConfig().weakPasswordHashing);

export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, weakPasswordHashing() ? WEAK : STANDARD);
}

export function passwordMatchesHash(password: string, hash: string): Promise<boolean> {
  return Bun.password.verify(password, hash);
}
