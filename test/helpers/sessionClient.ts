import { expect } from "bun:test";
import { postFrom } from "./fromAddress";
import type { ApiResponse, Params } from "./client";
import { encodeParam } from "./client";

/**
 * A signed-in browser as the API sees it: the session and CSRF cookies from POST /login, and
 * requests sent the way our pages send them (the CSRF header unless told otherwise).
 */
export interface BrowserSession {
  baseUrl: string;
  cookie: string;
  csrf: string;
}

let nextAddress = 100;
/** A loopback address of its own per sign-in, so sign-in limits of one test do not touch another. */
export const freshAddress = () => `127.0.1.${nextAddress++ % 250}`;

export async function signInSession(baseUrl: string, person: { email: string; password: string }, address = freshAddress()): Promise<BrowserSession> {
  const response = await postFrom(address, `${baseUrl}/login`, { username: person.email, password: person.password });
  expect(response.status).toBe(303);
  const cookies = (response.headers["set-cookie"] ?? []).map((cookie) => cookie.split(";")[0]!);
  const csrf = cookies.find((cookie) => cookie.startsWith("parley_csrf="))!.slice("parley_csrf=".length);
  return { baseUrl, cookie: cookies.join("; "), csrf };
}

/** An /api/v1 request with the session's cookies; `csrf: null` leaves the header out. */
export async function sessionRequest(session: BrowserSession, method: string, path: string, params: Params | FormData = {}, options: { csrf?: string | null } = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { cookie: session.cookie };
  const csrf = options.csrf === undefined ? session.csrf : options.csrf;
  if (csrf !== null) headers["x-csrf-token"] = csrf;
  const url = new URL(`/api/v1${path}`, session.baseUrl);
  let body: BodyInit | undefined;
  if (params instanceof FormData) body = params;
  else if (method === "GET") for (const [name, value] of Object.entries(params)) url.searchParams.set(name, encodeParam(value));
  else body = new URLSearchParams(Object.entries(params).map(([name, value]) => [name, encodeParam(value)]));
  const response = await fetch(url, { method, headers, body });
  return { status: response.status, body: await response.json(), headers: response.headers };
}
