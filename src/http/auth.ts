import { timingSafeEqual } from "node:crypto";
import { Elysia } from "elysia";
import { findRealm } from "../db/realm";
import { database } from "../db/client";
import { findUserByEmail, type User } from "../db/users";
import { ApiError } from "./errors";

/** Answers one question only, "who is calling?"; what they may do is decided further down. */

const CHALLENGE = { "WWW-Authenticate": 'Basic realm="parley"' };

const unauthorized = (code: "UNAUTHORIZED" | "INVALID_API_KEY", message: string) =>
  new ApiError(code, message, {}, { headers: CHALLENGE });

function decodeBasic(header: string | undefined): { email: string; apiKey: string } {
  if (!header) throw unauthorized("UNAUTHORIZED", "Missing 'Authorization' header; use HTTP Basic with your e-mail and API key.");
  const [scheme, encoded] = header.split(" ", 2);
  if (scheme?.toLowerCase() !== "basic" || !encoded) throw unauthorized("UNAUTHORIZED", "Only HTTP Basic authorization is supported.");
  let decoded: string;
  try {
    decoded = Buffer.from(encoded, "base64").toString("utf8");
  } catch {
    throw unauthorized("UNAUTHORIZED", "Invalid Basic authorization header.");
  }
  const colon = decoded.indexOf(":");
  if (colon < 0) throw unauthorized("UNAUTHORIZED", "Invalid Basic authorization header.");
  return { email: decoded.slice(0, colon), apiKey: decoded.slice(colon + 1) };
}

// Compared even when no user matched, so response time does not reveal which e-mails exist.
const DECOY_KEY = Buffer.from("x".repeat(32));

function sameKey(given: string, expected: string | undefined): boolean {
  const a = Buffer.from(given);
  const b = expected === undefined ? DECOY_KEY : Buffer.from(expected);
  const equalLength = a.length === b.length;
  const equal = timingSafeEqual(equalLength ? a : b, b);
  return equalLength && equal && expected !== undefined;
}

/** The user a request's credentials belong to, or an ApiError saying why there is none. */
export function authenticate(header: string | undefined): User {
  const { email, apiKey } = decodeBasic(header);
  const db = database();
  const user = findUserByEmail(db, email);
  if (!sameKey(apiKey, user?.apiKey) || !user) throw unauthorized("INVALID_API_KEY", "Invalid API key");
  if (!user.isActive) throw new ApiError("USER_DEACTIVATED", "Account is deactivated");
  if (findRealm(db)?.deactivated) throw new ApiError("REALM_DEACTIVATED", "This organization is deactivated");
  return user;
}

/** `auth: true` on a route resolves `user` from HTTP Basic credentials or refuses the request. */
export const authentication = new Elysia({ name: "authentication" }).macro({
  auth: {
    resolve({ headers }) {
      return { user: authenticate(headers.authorization) };
    },
  },
});
