import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { loadConfig } from "../config";
import { realmNow } from "../db/realmNow";
import { findSessionByTokenHash, touchSession } from "../db/sessions";
import { readWithoutSnapshot, write } from "../db/transaction";
import { findUserById, type User } from "../db/users";
import { now } from "../model/clock";
import { requestOrigin, servedOverHttps } from "./clientAddress";
import { ApiError } from "./errors";

/**
 * Browser sessions: who a request carrying the session cookie is, and whether a request that
 * changes something really comes from our own pages (CSRF).
 *
 * Two cookies. `parley_session` holds the secret token, HttpOnly so no script can read it.
 * `parley_csrf` holds a value derived from that token, readable by our pages' scripts, which
 * send it back in the `X-CSRF-Token` header (or a form's `csrf_token` field). Another site can
 * make a browser send the cookies but cannot read them, so it cannot send the header; and
 * without the session token nobody can compute a value that matches.
 */

export const SESSION_COOKIE = "parley_session";
export const CSRF_COOKIE = "parley_csrf";
export const CSRF_HEADER = "x-csrf-token";

/** Extending a session is a write; once per this many seconds of use is enough. */
const TOUCH_AFTER_SECONDS = 300;

export const newSessionToken = () => randomBytes(32).toString("base64url");

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export const csrfTokenFor = (sessionToken: string) => createHash("sha256").update(`csrf:${sessionToken}`).digest("base64url");

export function parseCookies(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    // The first of a repeated name wins, as browsers send the most specific path first.
    if (!cookies.has(name)) cookies.set(name, part.slice(eq + 1).trim());
  }
  return cookies;
}

export const sessionTokenOf = (request: Request) => parseCookies(request.headers.get("cookie")).get(SESSION_COOKIE);

/** Whether the browser reached us over HTTPS (ours, or a trusted proxy's), so the cookies may be marked Secure. */
const overHttps = servedOverHttps;

function cookie(name: string, value: string, request: Request, maxAgeSeconds: number, httpOnly: boolean): string {
  const parts = [`${name}=${value}`, "Path=/", `Max-Age=${maxAgeSeconds}`, "SameSite=Lax"];
  if (httpOnly) parts.push("HttpOnly");
  if (overHttps(request)) parts.push("Secure");
  return parts.join("; ");
}

export function sessionCookies(request: Request, token: string): string[] {
  const maxAge = loadConfig().sessionIdleSeconds;
  return [cookie(SESSION_COOKIE, token, request, maxAge, true), cookie(CSRF_COOKIE, csrfTokenFor(token), request, maxAge, false)];
}

export const clearedSessionCookies = (request: Request) => [cookie(SESSION_COOKIE, "", request, 0, true), cookie(CSRF_COOKIE, "", request, 0, false)];

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Refuses a state-changing request that does not prove it comes from our pages: the CSRF value
 * (header, or `formToken` for a plain form) must match the session, and a browser-sent Origin,
 * when present, must be ours.
 */
export function checkCsrf(request: Request, sessionToken: string, formToken?: string) {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.get("origin");
  if (origin && origin !== "null" && origin !== requestOrigin(request)) throw csrfFailure();
  const given = request.headers.get(CSRF_HEADER) ?? formToken;
  if (!given || !sameText(given, csrfTokenFor(sessionToken))) throw csrfFailure();
}

/**
 * Refuses a form sent from another site to a page that needs no session (sign-in, joining,
 * password reset, setup): without it a hostile page can sign a visitor into the attacker's
 * account (login CSRF). There is no session yet to derive a token from, so the browser's own
 * word decides:
 * - `Sec-Fetch-Site`, which no page can set or forge, must say `same-origin` (or `none`: the
 *   person's own doing). Browsers compute it themselves, so it holds behind any proxy;
 * - from browsers that do not send it, an `Origin` must be ours (behind a trusted proxy, the
 *   origin the browser saw: requestOrigin), and `null` is refused, since a sandboxed frame on
 *   any site sends it (our pages send their origin: see the Referrer-Policy in web/html.ts);
 * - without either, a `Referer` must be ours;
 * - a request with none of them is a program, not a browser, and may go on.
 */
export function checkFormOrigin(request: Request) {
  if (SAFE_METHODS.has(request.method)) return;
  const site = request.headers.get("sec-fetch-site");
  if (site !== null) {
    if (site !== "same-origin" && site !== "none") throw foreignForm();
    return;
  }
  const claimed = request.headers.get("origin") ?? request.headers.get("referer");
  if (claimed !== null && originOf(claimed) !== requestOrigin(request)) throw foreignForm();
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

const foreignForm = () => new ApiError("CSRF_FAILED", "This form was sent from another site. Open this server's own page and try again.");

const csrfFailure = () => new ApiError("CSRF_FAILED", "CSRF verification failed: reload the page and try again.");

export const sessionExpired = () => new ApiError("UNAUTHORIZED", "Your session has ended; sign in again.");

/** The session a token names, if it is current: its ID and user. Extends it as it is used. */
export async function currentSession(token: string): Promise<{ id: number; user: User } | undefined> {
  const tokenHash = hashToken(token);
  const at = now();
  const found = await readWithoutSnapshot(async (db) => {
    const session = await findSessionByTokenHash(db, tokenHash);
    if (!session || session.expiresAt <= at) return undefined;
    const user = await findUserById(db, session.userId);
    return user && { session, user };
  });
  if (!found) return undefined;
  const { session, user } = found;
  if (at - session.lastSeenAt >= TOUCH_AFTER_SECONDS) await write((tx) => touchSession(tx, session.id, at, at + loadConfig().sessionIdleSeconds));
  return { id: session.id, user };
}

/** The user of a request authenticated by its session cookie, or an ApiError saying why not. */
export async function authenticateSession(request: Request, token: string): Promise<User> {
  const session = await currentSession(token);
  if (!session) throw sessionExpired();
  checkCsrf(request, token);
  if ((await realmNow())?.deactivated) throw new ApiError("REALM_DEACTIVATED", "This organization has been deactivated");
  if (!session.user.isActive) throw new ApiError("USER_DEACTIVATED", "Account is deactivated");
  return session.user;
}
