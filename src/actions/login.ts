import { loadConfig } from "../config";
import { database } from "../db/client";
import { findRealm } from "../db/realm";
import { findUserByEmail, normalizeEmail, type User } from "../db/users";
import { ApiError } from "../http/errors";
import { FailureLimiter } from "../http/rateLimit";

let limiter: FailureLimiter | null = null;

/** Shared by the API and the sign-in page, so switching between them buys no extra guesses. */
function loginLimiter(): FailureLimiter {
  if (!limiter) {
    const config = loadConfig();
    limiter = new FailureLimiter(config.loginFailureLimit, config.loginFailureWindowSeconds * 1000);
  }
  return limiter;
}

/**
 * The account an e-mail and password belong to (POST /fetch_api_key and the sign-in page).
 * Failures are counted per account and per client address; once either has too many, every
 * attempt is refused until the window moves on, even one with the right password.
 */
export async function logIn(username: string, password: string, address: string): Promise<User> {
  const account = `account:${normalizeEmail(username)}`;
  const user = findUserByEmail(database(), username);
  const valid = await loginLimiter().attempt([account, `address:${address}`], () => passwordMatches(user, password));
  if (!valid || !user) throw new ApiError("AUTHENTICATION_FAILED", "Your username or password is incorrect");
  // Only someone who knows the password learns that the account or organization is closed.
  if (findRealm(database())?.deactivated) throw new ApiError("REALM_DEACTIVATED", "This organization has been deactivated");
  if (!user.isActive) throw new ApiError("USER_DEACTIVATED", "Account is deactivated");
  // The owner's own typos are forgiven once they prove the password; an address's failures
  // are not, or an attacker with any account could wipe their count by logging in to it.
  loginLimiter().forget(account);
  return user;
}

async function passwordMatches(user: User | undefined, password: string): Promise<boolean> {
  // Verified against a real hash even for unknown users and bots, so timing does not reveal accounts.
  const valid = await Bun.password.verify(password, user?.passwordHash ?? (await decoyHash()));
  return valid && Boolean(user?.passwordHash);
}

let decoy: Promise<string> | null = null;
const decoyHash = () => (decoy ??= Bun.password.hash(crypto.randomUUID(), { algorithm: "argon2id" }));
