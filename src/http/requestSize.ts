import { ApiError } from "./errors";
import { jsonTextProblem } from "./jsonText";
import { MAX_FILE_UPLOAD_SIZE_MIB } from "../model/uploads";

/**
 * How large a request may be, and the reading of bodies within that.
 *
 * The largest legitimate request is a file upload: MAX_UPLOAD_BYTES is the server's upload
 * ceiling (model/uploads.ts, the reference's default of 25 MiB) plus room for the multipart
 * framing. Every other request is form fields, whose largest legitimate values are JSON ID
 * lists of about a megabyte (see jsonText.ts), and gets MAX_BODY_BYTES. Bodies are read as
 * they stream in and refused the moment they pass their limit, so a hostile body costs at most
 * the limit in memory; one that declares a larger Content-Length is refused before a byte of
 * it is read.
 */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
export const MAX_UPLOAD_BYTES = MAX_FILE_UPLOAD_SIZE_MIB * 1024 * 1024 + 64 * 1024;
/** Paths that take file uploads. */
const UPLOAD_PATHS = new Set<string>(["/api/v1/user_uploads"]);

/**
 * Bun's own limit, which answers 413 with an empty body before any of our code runs: set far
 * above ours, so that every refusal a client sees is ours, in the API's envelope. Nothing is
 * buffered up to it: every body is read through parseBody below.
 */
export const BUN_BODY_BACKSTOP_BYTES = 1024 * 1024 * 1024;

/**
 * The longest request head (request line and headers) Bun reads before answering 431 with an
 * empty body, which no client can make sense of. Bun's default is 16 KiB, and GET /messages
 * with a few thousand message IDs in its query string is longer; so Parley runs with
 * `--max-http-header-size` set to this (package.json's scripts, the compiled binary's
 * embedded arguments), and refuses URLs over MAX_URL_LENGTH itself, in the API's envelope.
 */
export const MAX_REQUEST_HEAD_BYTES = 1024 * 1024;
export const MAX_URL_LENGTH = 512 * 1024;

const MIB = 1024 * 1024;
const described = (bytes: number) => `${Math.round((bytes / MIB) * 10) / 10} MiB`;

/** Custom emoji uploads (POST /api/v1/realm/emoji/{name}); the action holds them to the emoji limit. */
const EMOJI_UPLOAD_PREFIX = "/api/v1/realm/emoji/";
/** Avatar uploads; the action holds them to the avatar limit. */
const AVATAR_UPLOAD_PATH = "/api/v1/users/me/avatar";

const bodyLimitFor = (path: string) => (UPLOAD_PATHS.has(path) || path.startsWith(EMOJI_UPLOAD_PREFIX) || path === AVATAR_UPLOAD_PATH ? MAX_UPLOAD_BYTES : MAX_BODY_BYTES);

const tooLarge = (limit: number) => new ApiError("BAD_REQUEST", `Request body too large (at most ${described(limit)})`, {}, { status: 413 });
/** A file over the server's ceiling, told in the words of the upload's own check (actions/uploads.ts). */
const fileTooLarge = () => new ApiError("BAD_REQUEST", `Uploaded file is larger than the allowed limit of ${MAX_FILE_UPLOAD_SIZE_MIB} MiB`, {}, { status: 413 });
const refusalFor = (path: string, limit: number) => (UPLOAD_PATHS.has(path) ? fileTooLarge() : tooLarge(limit));

/** Paths as Elysia matches them: without the query string. */
const pathOf = (url: string) => {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const end = url.indexOf("?", start);
  return url.slice(start, end === -1 ? undefined : end);
};

/**
 * Refuses, before routing, a URL over the limit or a body that says it is larger than its
 * route takes. Cheap enough for every request: one header lookup and a length.
 */
export function checkRequestSize(request: Request) {
  if (request.url.length > MAX_URL_LENGTH) {
    throw new ApiError("BAD_REQUEST", `Request URL too long (at most ${MAX_URL_LENGTH / 1024} KiB); send long parameters in a POST body`, {}, { status: 414 });
  }
  const declared = request.headers.get("content-length");
  if (declared === null) return;
  const path = pathOf(request.url);
  const limit = bodyLimitFor(path);
  if (Number(declared) > limit) throw refusalFor(path, limit);
}

/**
 * The body's bytes, read as they arrive and refused once they pass the route's limit. Only
 * for bodies sent without a Content-Length (chunked): a declared length was checked before
 * routing, and Bun reads no more than it, so those are read whole, which is cheaper.
 */
async function readChunkedBody(request: Request): Promise<Uint8Array<ArrayBuffer>> {
  const path = pathOf(request.url);
  const limit = bodyLimitFor(path);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      void reader.cancel().catch(() => {});
      throw refusalFor(path, limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

const malformed = () => new ApiError("BAD_REQUEST", "Malformed request body");

/**
 * Form bodies become plain string maps. Elysia's own multipart parser turns JSON-looking
 * values into objects, which would corrupt a message whose content happens to be "[1]";
 * here every value stays the string the client sent and the route's schema decodes it.
 */
async function parseForm(body: Request | Response): Promise<Record<string, string | File>> {
  let form: FormData;
  try {
    form = await body.formData();
  } catch {
    throw malformed();
  }
  const values: Record<string, string | File> = {};
  for (const [name, value] of form) values[name] = value;
  return values;
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return {};
  const problem = jsonTextProblem(text);
  if (problem) throw new ApiError("BAD_REQUEST", `The JSON body ${problem}`);
  try {
    return JSON.parse(text);
  } catch {
    throw malformed();
  }
}

/**
 * Every request body, whatever its type, is read here within its limit: a chunked body left
 * to Elysia's own parsers would be buffered whole first. Forms and JSON are decoded; anything
 * else is kept as text, which no route reads.
 */
export async function parseBody(request: Request, contentType: string): Promise<unknown> {
  const type = contentType.toLowerCase();
  const isForm = type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data");
  const isJson = type.startsWith("application/json") || type.endsWith("+json");
  if (request.headers.get("content-length") !== null) {
    if (isForm) return parseForm(request);
    const text = await request.text();
    return isJson ? parseJson(text) : text;
  }
  const bytes = await readChunkedBody(request);
  if (isForm) return parseForm(new Response(bytes, { headers: { "content-type": request.headers.get("content-type") ?? type } }));
  const text = new TextDecoder().decode(bytes);
  return isJson ? parseJson(text) : text;
}

/**
 * Said at start when the runtime flag is missing (someone ran `bun src/main.ts` by hand):
 * then a URL of 16 KiB or more gets Bun's empty 431 instead of an answer.
 */
export function requestHeadLimitWarning(runtimeLimit: number): string | undefined {
  if (runtimeLimit >= MAX_REQUEST_HEAD_BYTES) return undefined;
  return `Bun reads request heads up to ${runtimeLimit} bytes; run with --max-http-header-size=${MAX_REQUEST_HEAD_BYTES} (as npm start and the built binary do) so long query strings get an answer`;
}
