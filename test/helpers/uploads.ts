import { ok, type Org, type Person } from "./seed";

/** Uploads over HTTP the way the reference's clients send them: multipart, one file part, Basic auth. */

export const basicAuth = (person: Pick<Person, "email" | "apiKey">) => ({ authorization: `Basic ${Buffer.from(`${person.email}:${person.apiKey}`).toString("base64")}` });

export interface FilePart {
  /** The form field: "file" (zulip-flutter), the file's path (python-zulip-api), anything. */
  field?: string;
  name: string;
  bytes: Uint8Array | string;
  /** The part's Content-Type; none when undefined (then the server guesses from the name). */
  type?: string;
}

/** POST /api/v1/user_uploads with these parts (and string fields), answered as status and JSON. */
export async function postUpload(org: Org, person: Person | null, parts: FilePart[], fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const part of parts) form.append(part.field ?? "file", new Blob([part.bytes as BlobPart], part.type === undefined ? {} : { type: part.type }), part.name);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const response = await fetch(new URL("/api/v1/user_uploads", org.server.url), { method: "POST", headers: person ? basicAuth(person) : {}, body: form });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** Uploads one file and answers its URL ("/user_uploads/1/.../name"). */
export async function uploadFile(org: Org, person: Person, name = "notes.txt", bytes: Uint8Array | string = `bytes of ${name} ${Math.random()}`, type?: string): Promise<string> {
  return ok(await postUpload(org, person, [{ name, bytes, type }])).url;
}

/** GET of an upload's URL (outside /api/v1), as `person` or without credentials. */
export function download(org: Org, person: Person | null, url: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(new URL(url, org.server.url), { headers: { ...(person ? basicAuth(person) : {}), ...headers } });
}
