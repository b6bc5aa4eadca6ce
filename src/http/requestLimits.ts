import { Elysia } from "elysia";
import type { RateLimits } from "../config";
import type { User } from "../db/users";
import { MIB } from "../model/uploads";
import { type AddressSource, clientAddress } from "./clientAddress";
import { addressKey, rateLimited } from "./rateLimit";
import { RateBucket } from "./rateBucket";
import { requestNote } from "./requestNote";

/**
 * How many requests one account, or one client address, may make: the reference's rate limits.
 *
 * Every request made with credentials spends from its account's `api` bucket as it is
 * authenticated (http/auth.ts), before its parameters are looked at, as the reference does;
 * the long-poll spends from its own `events` bucket instead, as the reference's event server
 * keeps its own count (a client in a busy organization polls again as each event arrives).
 * Requests without credentials spend from their address's `address` bucket, which routes open
 * to everyone declare with `limit: "address"`. Sends, uploads and sign-ups spend from a stricter
 * bucket besides (`limit: "sends"`, ...), and registering an event queue from `register`.
 *
 * Accounts are keyed by their ID: a bot has its own buckets, as in the reference, so one
 * integration's burst does not limit its owner. The notification bot never comes through HTTP.
 * A refusal is the reference's 429 with `retry-after`; every answer that spent from a bucket
 * carries its X-RateLimit-* headers. In memory: a restart refills every bucket.
 */

type Buckets = { [name in keyof RateLimits]: RateBucket | null };

let buckets: Buckets | null = null;

/** Sets the limits from the configuration; until then (an app run in-process by tests) nothing is limited. */
export function configureRateLimits(limits: RateLimits) {
  // Named: a cluster's nodes share what each spends (http/sharedLimits.ts).
  const made = Object.fromEntries(Object.entries(limits).map(([name, rule]) => [name, rule && new RateBucket(rule.count, rule.seconds, undefined, `requests:${name}`)])) as Buckets;
  buckets = Object.values(made).some(Boolean) ? made : null;
}

/** The parts of a request's context a limit needs. */
export interface LimitContext {
  request: Request;
  server: AddressSource;
  set: { headers: Record<string, string | number> };
}

const LONG_POLL_PATH = "/api/v1/events";

/** The account a request was counted under, once its credentials were checked. */
const countedAccount = requestNote<number>("rate-limited account");

/** The strictest of the buckets a request spent from (the lowest limit and remainder, the latest refill). */
interface Told {
  limit: number;
  remaining: number;
  resetAt: number;
}
const told = requestNote<Told>("rate limits told");

function headersOf({ limit, remaining, resetAt }: Told): Record<string, string> {
  return { "X-RateLimit-Limit": String(limit), "X-RateLimit-Remaining": String(remaining), "X-RateLimit-Reset": String(Math.ceil(resetAt / 1000)) };
}

/**
 * Spends `cost` from `key`'s bucket, or throws the 429. `counted` buckets (requests) are told
 * in the headers; one counted in other units (MiB) only shows when it refuses.
 */
function spend(context: LimitContext, bucket: RateBucket | null, key: number | string, cost = 1, counted = true) {
  if (bucket === null) return;
  const now = Date.now();
  const waitMs = bucket.spend(key, now, cost);
  if (!counted && waitMs === 0) return;
  const previous = told.get(context.request);
  const mine: Told =
    waitMs > 0
      ? // Nothing remains until the wait is over; a bucket in other units keeps the requests' limit.
        { limit: counted ? bucket.count : (previous?.limit ?? bucket.count), remaining: 0, resetAt: now + waitMs }
      : { limit: bucket.count, remaining: bucket.remaining(key, now), resetAt: bucket.fullAt(key, now) };
  const strictest: Told = previous
    ? { limit: Math.min(previous.limit, mine.limit), remaining: Math.min(previous.remaining, mine.remaining), resetAt: Math.max(previous.resetAt, mine.resetAt) }
    : mine;
  told.set(context.request, strictest);
  const headers = headersOf(strictest);
  Object.assign(context.set.headers, headers);
  if (waitMs > 0) throw rateLimited(Math.ceil(waitMs / 1000), headers);
}

const addressOf = (context: LimitContext) => addressKey(clientAddress(context.server, context.request));

/**
 * Runs `identify`, a check of a request's credentials; a request it refuses counts against
 * the client's address, so guessing keys or replaying dead sessions is limited like any
 * request without credentials.
 */
export function checkedCredentials<T>(context: LimitContext, identify: () => T | Promise<T>): T | Promise<T> {
  const refused = (error: unknown): never => {
    limitAddress(context);
    throw error;
  };
  try {
    const identified = identify();
    // Known credentials are answered from memory, without a Promise: every request takes this path.
    return identified instanceof Promise ? identified.catch(refused) : identified;
  } catch (error) {
    return refused(error);
  }
}

function countAccount(context: LimitContext, bucket: RateBucket | null, user: User) {
  countedAccount.set(context.request, user.id);
  spend(context, bucket, user.id);
}

/** Counts a request authenticated as `user` (http/auth.ts): the long-poll in its own bucket, the rest as API requests. */
export function limitAccount(context: LimitContext, path: string, user: User) {
  if (buckets === null) return;
  countAccount(context, context.request.method === "GET" && path === LONG_POLL_PATH ? buckets.events : buckets.api, user);
}

/** Counts a request made without credentials against its client address. */
export function limitAddress(context: LimitContext) {
  if (buckets === null) return;
  spend(context, buckets.address, addressOf(context));
}

/** POST /register: an API request and a registration of the account, or for a spectator (null) of the address. */
export function limitRegistration(context: LimitContext, caller: User | null) {
  if (buckets === null) return;
  if (caller === null) {
    const address = addressOf(context);
    spend(context, buckets.address, address);
    spend(context, buckets.register, address);
  } else {
    countAccount(context, buckets.api, caller);
    spend(context, buckets.register, caller.id);
  }
}

/** The bytes of every file in a parsed body (forms become string maps, see http/requestSize.ts). */
function fileBytes(body: unknown): number {
  if (!body || typeof body !== "object") return 0;
  let bytes = 0;
  for (const value of Object.values(body)) if (value instanceof File) bytes += value.size;
  return bytes;
}

/** What a route is counted as besides a request (the `limit` option). */
export type LimitedAs = "address" | "signUps" | "sends" | "uploads";

/**
 * `limit: "address"` on a route open to everyone counts it against the client's address
 * (`"signUps"` too, and against the address's sign-ups). On a route with `auth`, `"sends"` and
 * `"uploads"` spend from the account's stricter buckets besides (uploads in files and MiB),
 * after the body is read and checked, so a refused send or upload stores nothing.
 */
export const requestLimits = new Elysia({ name: "requestLimits" }).macro({
  limit(kind: LimitedAs) {
    if (kind === "address" || kind === "signUps") {
      return {
        transform({ request, server, set }) {
          if (buckets === null) return;
          const context = { request, server, set };
          limitAddress(context);
          if (kind === "signUps") spend(context, buckets.signUps, addressOf(context));
        },
      };
    }
    return {
      beforeHandle({ request, server, set, body }) {
        if (buckets === null) return;
        const account = countedAccount.get(request);
        if (account === undefined) throw new Error(`limit: "${kind}" needs auth on the route`);
        const context = { request, server, set };
        spend(context, kind === "sends" ? buckets.sends : buckets.uploads, account);
        if (kind === "uploads") spend(context, buckets.uploadMib, account, fileBytes(body) / MIB, false);
      },
    };
  },
});
