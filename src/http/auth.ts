import { timingSafeEqual } from "node:crypto";
import { Elysia } from "elysia";
import { keptUntilChange } from "../db/caches";
import { findRealm } from "../db/realm";
import { read } from "../db/transaction";
import { findUserByEmail, type User } from "../db/users";
import { ApiError } from "./errors";
import { requestNote } from "./requestNote";
import { checkedCredentials, limitAccount } from "./requestLimits";
import { authenticateSession, sessionTokenOf } from "./session";

/** Answers one question only, "who is calling?"; what they may do is decided further down. */

const CHALLENGE = { "WWW-Authenticate": 'Basic realm="parley"' };

const unauthorized = (code: "UNAUTHORIZED" | "INVALID_API_KEY", message: string) => new ApiError(code, message, {}, { headers: CHALLENGE });

const NOT_LOGGED_IN = "Not logged in: use HTTP Basic authentication with your e-mail address and API key.";

function decodeBasic(header: string | undefined): { email: string; apiKey: string } {
  if (!header) throw unauthorized("UNAUTHORIZED", NOT_LOGGED_IN);
  const [scheme, encoded] = header.trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() !== "basic" || !encoded) throw unauthorized("UNAUTHORIZED", NOT_LOGGED_IN);
  // Buffer's decoder skips characters outside the alphabet instead of failing; insist on the real thing.
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) throw unauthorized("UNAUTHORIZED", "Malformed Basic authorization header.");
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) throw unauthorized("UNAUTHORIZED", "Malformed Basic authorization header: expected 'email:api_key'.");
  return { email: decoded.slice(0, colon), apiKey: decoded.slice(colon + 1) };
}

// Compared even when no user matched, so response time does not reveal which e-mails exist.
const DECOY_KEY = Buffer.from("x".repeat(32));

/** Constant-time in the key's content: every byte is compared whatever the first mismatch. */
function sameKey(given: string, expected: string | undefined): boolean {
  const a = Buffer.from(given);
  const b = expected === undefined ? DECOY_KEY : Buffer.from(expected);
  const equalLength = a.length === b.length;
  const equal = timingSafeEqual(equalLength ? a : b, b);
  return equalLength && equal && expected !== undefined;
}

/** The user a request's credentials belong to, or an ApiError saying why there is none. */
// Accounts whose credentials checked out, by the exact Authorization header. Dropped at every
// write() (see db/caches.ts), so a changed key, a deactivation or a role change is seen on
// the very next request.
const verifiedAccounts = keptUntilChange("verifiedAccounts", () => new Map<string, User>());
const MAX_VERIFIED_ACCOUNTS = 10_000;
// Real credentials make a header of a few hundred characters. Anything may follow them (see
// decodeBasic), so longer headers are checked each time rather than kept: a client could
// otherwise fill the cache with megabyte-long variants of its own header.
const MAX_CACHED_HEADER_LENGTH = 1024;

/** Known credentials are answered from memory, without a Promise: nearly every request's case. */
export function authenticate(header: string | undefined): User | Promise<User> {
  // Taken before the credentials are read (below, across awaits): should a write commit
  // meanwhile, what this check found may predate it, and goes into this copy, which that
  // commit has already dropped.
  const verified = verifiedAccounts();
  const known = header === undefined ? undefined : verified.get(header);
  if (known) return known;
  return checkCredentials(header).then((user) => {
    if (header!.length > MAX_CACHED_HEADER_LENGTH) return user;
    if (verified.size >= MAX_VERIFIED_ACCOUNTS) verified.clear();
    verified.set(header!, user);
    return user;
  });
}

async function checkCredentials(header: string | undefined): Promise<User> {
  const { email, apiKey } = decodeBasic(header);
  const { user, realm } = await read(async (db) => ({ user: await findUserByEmail(db, email), realm: await findRealm(db) }));
  if (!sameKey(apiKey, user?.apiKey) || !user) throw unauthorized("INVALID_API_KEY", "Invalid API key");
  if (realm?.deactivated) throw new ApiError("REALM_DEACTIVATED", "This organization has been deactivated");
  if (!user.isActive) throw new ApiError("USER_DEACTIVATED", "Account is deactivated");
  return user;
}

const authenticated = requestNote<User>("authenticated user");

/**
 * Programs send HTTP Basic credentials; our own pages send the session cookie, and then no
 * Basic challenge goes back (it would make the browser pop up its own password dialog).
 */
function authenticateRequest(request: Request): User | Promise<User> {
  const header = request.headers.get("authorization") ?? undefined;
  if (header !== undefined) return authenticate(header);
  const sessionToken = sessionTokenOf(request);
  if (sessionToken !== undefined) return authenticateSession(request, sessionToken);
  return authenticate(undefined);
}

/**
 * `auth: true` on a route resolves `user` from HTTP Basic credentials or a browser session, or refuses the request.
 * The check runs at transform, before parameter validation, so a caller without valid
 * credentials learns nothing about an endpoint's parameters: it gets the 401 first. The
 * request is counted against the account's rate limit there too (or, refused, against the
 * client's address: http/requestLimits.ts).
 */
export const authentication = new Elysia({ name: "authentication" }).macro({
  auth: {
    // The header is read from the request itself: asking Elysia for `headers` makes it copy
    // every header into an object on each request to these routes.
    transform({ request, server, set, path }) {
      const context = { request, server, set };
      const admit = (user: User) => {
        limitAccount(context, path, user);
        authenticated.set(request, user);
      };
      const user = checkedCredentials(context, () => authenticateRequest(request));
      return user instanceof Promise ? user.then(admit) : admit(user);
    },
    resolve({ request }) {
      const user = authenticated.get(request);
      if (!user) throw new Error("authentication: resolve ran without its transform");
      return { user };
    },
  },
});
