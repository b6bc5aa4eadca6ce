import { loadConfig } from "../config";
import { readWithoutSnapshot } from "../db/transaction";
import { findRealm } from "../db/realm";
import { findUserByEmail, normalizeEmail, type User } from "../db/users";
import { ApiError } from "../http/errors";
import { addressKey, attemptWithin, FailureCounter, RecentSuccesses, type FailureCheck } from "../http/rateLimit";
import { hashPassword, passwordMatchesHash } from "./passwordHashing";

/** How long an address an account signed in from stays exempt from the wider limits. */
const TRUST_MS = 30 * 24 * 3600 * 1000;

interface LoginLimits {
  /** Failures for one account from one address: the owner's own typos, a targeted guesser. */
  pairs: FailureCounter;
  /** Failures from one address over all accounts: a sprayer. */
  addresses: FailureCounter;
  /** Failures for one account from all addresses: a distributed guesser. */
  accounts: FailureCounter;
  /** Accounts at addresses that signed in lately, by pair key. */
  trusted: RecentSuccesses;
}

let limits: LoginLimits | null = null;

/** Shared by the API and the sign-in page, so switching between them buys no extra guesses. */
function loginLimits(): LoginLimits {
  if (!limits) {
    const config = loadConfig();
    const windowMs = config.loginFailureWindowSeconds * 1000;
    limits = {
      // Named: a cluster's nodes share them (http/sharedLimits.ts), so guesses spread over the nodes count as one.
      pairs: new FailureCounter(config.loginFailureLimit, windowMs, undefined, "login:pairs"),
      addresses: new FailureCounter(config.loginAddressFailureLimit, windowMs, undefined, "login:addresses"),
      accounts: new FailureCounter(config.loginAccountFailureLimit, windowMs, undefined, "login:accounts"),
      trusted: new RecentSuccesses(TRUST_MS, undefined, "login:trusted"),
    };
  }
  return limits;
}

/**
 * The account an e-mail and password belong to (POST /fetch_api_key and the sign-in page).
 *
 * Failures are counted three ways (see LoginLimits); once a count is full, attempts it covers
 * are refused until the window moves on, even one with the right password. An address the
 * account signed in from within the last 30 days is held to the first count only: that is
 * where its owner usually is (OWASP's "device cookie", with the address standing in for the
 * cookie API clients do not keep), so neither a guesser elsewhere nor a sprayer on the same
 * network can lock the owner out there.
 */
export async function logIn(username: string, password: string, address: string): Promise<User> {
  const { checks, pair } = limitChecks(username, address);
  const user = await readWithoutSnapshot((db) => findUserByEmail(db, username));
  const valid = await attemptWithin(checks, () => passwordMatches(user, password));
  if (!valid || !user) throw new ApiError("AUTHENTICATION_FAILED", "Your username or password is incorrect");
  // Only someone who knows the password learns that the account or organization is closed.
  if ((await readWithoutSnapshot((db) => findRealm(db)))?.deactivated) throw new ApiError("REALM_DEACTIVATED", "This organization has been deactivated");
  if (!user.isActive) throw new ApiError("USER_DEACTIVATED", "Account is deactivated");
  // Typos before the right password are forgiven at this address. The account's and the
  // address's counts stay: wiping those would give back guesses to whoever made the others.
  const { pairs, trusted } = loginLimits();
  pairs.forget(pair);
  trusted.record(pair, Date.now());
  return user;
}

/** The counts an attempt at `username` from `address` is held to (see LoginLimits). */
function limitChecks(username: string, address: string): { checks: FailureCheck[]; pair: string } {
  const account = normalizeEmail(username);
  const from = addressKey(address);
  // Addresses hold no spaces, so no username can make two pairs share a key.
  const pair = `${from} ${account}`;
  const { pairs, addresses, accounts, trusted } = loginLimits();
  const checks: FailureCheck[] = [{ counter: pairs, key: pair }];
  if (!trusted.has(pair, Date.now())) checks.push({ counter: addresses, key: from }, { counter: accounts, key: account });
  return { checks, pair };
}

/**
 * Whether `password` is the signed-in user's own (PATCH /settings asks before a new one is
 * set). Counted and limited exactly as sign-in attempts, so a stolen session or API key
 * cannot be used to guess the password either.
 */
export async function isOwnPassword(user: User, password: string, address: string): Promise<boolean> {
  const { checks, pair } = limitChecks(user.email, address);
  const valid = await attemptWithin(checks, () => passwordMatches(user, password));
  if (valid) loginLimits().pairs.forget(pair);
  return valid;
}

async function passwordMatches(user: User | undefined, password: string): Promise<boolean> {
  // Verified against a real hash even for unknown users and bots, so timing does not reveal accounts.
  const valid = await passwordMatchesHash(password, user?.passwordHash ?? (await decoyHash()));
  return valid && Boolean(user?.passwordHash);
}

let decoy: Promise<string> | null = null;
// Made as users' hashes are made, so that checking it takes as long as checking theirs.
const decoyHash = () => (decoy ??= hashPassword(crypto.randomUUID()));
