import { encodeParam, type Params } from "../helpers/client";
import type { Caller, ExpensiveCase } from "./cases";
import type { StallOrg } from "./organization";

/** Sends one case's request as its caller; answers with the status and the parsed body (or text). */
export async function sendCase(org: StallOrg, method: string, routePath: string, entry: ExpensiveCase): Promise<{ status: number; body: any }> {
  const url = new URL(entry.path?.(org) ?? routePath, org.server.url);
  const params = entry.params?.(org) ?? {};
  const headers: Record<string, string> = { ...credentials(org, entry.as) };
  let body: BodyInit | undefined;
  if (method === "GET") {
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, encodeParam(value));
  } else if (entry.multipart) {
    const form = new FormData();
    for (const [name, value] of Object.entries(params)) form.append(name, value instanceof Blob ? value : encodeParam(value));
    body = form;
  } else {
    body = new URLSearchParams(Object.entries(params).map(([name, value]) => [name, encodeParam(value)]));
    headers["content-type"] = "application/x-www-form-urlencoded";
  }
  const response = await fetch(url, { method, headers, body, redirect: "manual" });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Pages and files answer with what they are.
  }
  return { status: response.status, body: parsed };
}

function credentials(org: StallOrg, caller: Caller): Record<string, string> {
  if (caller === "nobody") return {};
  if (caller === "ownerSession") return { cookie: org.ownerSession.cookie, "x-csrf-token": org.ownerSession.csrf };
  const person = org[caller];
  return { authorization: `Basic ${Buffer.from(`${person.email}:${person.apiKey}`).toString("base64")}` };
}
