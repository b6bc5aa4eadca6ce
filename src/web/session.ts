import { startSession } from "../actions/sessions";
import { clientAddress } from "../http/rateLimit";
import { clearedSessionCookies, currentSession, sessionCookies, sessionTokenOf } from "../http/session";

/** What the browser areas share about who is signed in, and where each kind of person lands. */

/** A user as the session found them (web/ reads people through http/, never db/). */
type User = NonNullable<Awaited<ReturnType<typeof currentSession>>>["user"];

type AddressSource = Parameters<typeof clientAddress>[0];

export async function signedInUser(request: Request): Promise<User | undefined> {
  const token = sessionTokenOf(request);
  const session = token === undefined ? undefined : await currentSession(token);
  return session?.user.isActive ? session.user : undefined;
}

export const redirect = (location: string, cookies: string[] = []) => {
  const headers = new Headers({ location, "cache-control": "no-store" });
  for (const cookie of cookies) headers.append("set-cookie", cookie);
  return new Response(null, { status: 303, headers });
};

/** Everyone lands in the chat; the console and settings are a click away from it. */
export const homeOf = (_user: User) => "/";

/** Only a path on this server: `next=https://elsewhere` must not turn sign-in into a redirector. */
export const safeNext = (next: string | undefined) => (next && /^\/(?![/\\])/.test(next) ? next : undefined);

export async function startBrowserSession(request: Request, server: AddressSource, user: User): Promise<string[]> {
  const token = await startSession(user, { userAgent: request.headers.get("user-agent") ?? "", address: clientAddress(server, request) });
  return sessionCookies(request, token);
}

export const signOutCookies = clearedSessionCookies;
