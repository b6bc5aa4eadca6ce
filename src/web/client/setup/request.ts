import { ApiFailure } from "../ui/api";

/**
 * The two calls of the wizard that are not /api/v1: checking the setup code and creating the
 * organization (which answers JSON and sets the session cookies when asked for JSON).
 */
export async function setupCall<T = Record<string, unknown>>(path: "/setup" | "/setup/code", params: Record<string, string>): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, { method: "POST", credentials: "same-origin", headers: { accept: "application/json" }, body: new URLSearchParams(params) });
  } catch {
    throw new ApiFailure("The server cannot be reached. Check your connection and try again.", "NETWORK", 0, {});
  }
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok || body.result !== "success") throw new ApiFailure(String(body.msg ?? `The server answered ${response.status}.`), String(body.code ?? "UNKNOWN"), response.status, body);
  return body as T;
}
