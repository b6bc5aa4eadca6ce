/**
 * Calls to /api/v1 with the browser's session, in the encoding every Zulip client uses:
 * parameters as form fields, anything that is not a string as JSON. The CSRF value comes from
 * its cookie; our pages never see the session token itself.
 */

export class ApiFailure extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
  }
}

export type Params = Record<string, unknown>;

export function cookie(name: string): string | undefined {
  for (const part of document.cookie.split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return undefined;
}

export const csrfToken = () => cookie("parley_csrf") ?? "";

function encode(params: Params): URLSearchParams {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    form.append(key, typeof value === "string" ? value : JSON.stringify(value));
  }
  return form;
}

export async function api<T = Record<string, unknown>>(
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
  path: string,
  params: Params | FormData = {},
  options: { signal?: AbortSignal } = {},
): Promise<T> {
  let url = `/api/v1${path}`;
  const init: RequestInit = { method, credentials: "same-origin", headers: { "x-csrf-token": csrfToken(), accept: "application/json" }, signal: options.signal };
  if (params instanceof FormData) init.body = params;
  else if (method === "GET") {
    const query = encode(params).toString();
    if (query) url += `?${query}`;
  } else init.body = encode(params);
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch {
    if (options.signal?.aborted) throw new ApiFailure("The request was cancelled.", "ABORTED", 0, {});
    throw new ApiFailure("The server cannot be reached. Check your connection and try again.", "NETWORK", 0, {});
  }
  // A reply cut off mid-body (the server went away) counts as unreachable, not as an answer.
  const body = (await response.json().catch(() => (response.ok ? { result: "error", code: "NETWORK", msg: "The server's answer was cut off." } : {}))) as Record<string, unknown>;
  if (response.status === 401 && body.code === "UNAUTHORIZED") {
    // The session ended (expired, revoked, signed out elsewhere): back to sign-in, then here.
    location.assign(`/login?next=${encodeURIComponent(location.pathname)}`);
  }
  if (!response.ok || body.result !== "success") {
    throw new ApiFailure(String(body.msg ?? `The server answered ${response.status}.`), String(body.code ?? "UNKNOWN"), response.status, body);
  }
  return body as T;
}

/** Fetches a text file the API serves (a bot's zuliprc) with the session. */
export async function apiText(path: string): Promise<string> {
  const response = await fetch(`/api/v1${path}`, { credentials: "same-origin" });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    throw new ApiFailure(String(body.msg ?? `The server answered ${response.status}.`), String(body.code ?? "UNKNOWN"), response.status, body);
  }
  return response.text();
}

/** Ends the session (POST /logout) and goes to sign-in. */
export function signOut() {
  const form = document.createElement("form");
  form.method = "post";
  form.action = "/logout";
  const field = document.createElement("input");
  field.type = "hidden";
  field.name = "csrf_token";
  field.value = csrfToken();
  form.append(field);
  document.body.append(form);
  form.submit();
}

/**
 * The register snapshot of some sections, read once: pages that show settings have no GET for
 * them but register. The queue register opens is deleted at once, not left to idle out.
 */
export async function snapshot<T>(params: Params): Promise<T> {
  const state = await api<T & { queue_id?: string | null }>("POST", "/register", params);
  if (state.queue_id) void api("DELETE", "/events", { queue_id: state.queue_id }).catch(() => undefined);
  return state;
}
