import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Rules for uploaded files: how large one may be, what it is called in its URL, which types a
 * browser may show inline, and the signed temporary URLs of GET /user_uploads/{realm}/{path}.
 */

/**
 * The server's ceiling on one upload, in MiB (the reference's default MAX_FILE_UPLOAD_SIZE).
 * The organization's max_file_upload_size_mib may lower it, never raise it: the HTTP layer
 * reads no upload body larger than this (http/requestSize.ts).
 */
export const MAX_FILE_UPLOAD_SIZE_MIB = 25;
export const MIB = 1024 * 1024;

/** The limit that applies: the organization's setting, within the server's ceiling. */
export function uploadLimitMib(setting: number): number {
  return Math.max(0, Math.min(Math.floor(setting), MAX_FILE_UPLOAD_SIZE_MIB));
}

const MAX_NAME_LENGTH = 255;
const MAX_URL_NAME_LENGTH = 100;

/**
 * The name an upload is listed under: what the client called it, without any directory part,
 * percent-decoding (browsers and the reference's clients encode it) or control characters.
 */
export function displayFileName(given: string | undefined): string {
  let name = (given ?? "").replace(/^.*[/\\]/, "");
  try {
    name = decodeURIComponent(name);
  } catch {
    // Not percent-encoded after all: keep it as sent.
  }
  name = name
    .normalize("NFC")
    .replace(/[\p{Cc}\p{Cf}]/gu, "")
    .replace(/^.*[/\\]/, "")
    .trim();
  if (name === "" || name === "." || name === "..") return "uploaded-file";
  return [...name].slice(0, MAX_NAME_LENGTH).join("");
}

/**
 * The name in the URL: letters, digits, "_", "." and "-" only (the reference's sanitize_name),
 * so it needs no escaping in Markdown or HTML and cannot be read as a path. Shortened from
 * the front, keeping the extension that says what the file is.
 */
export function urlFileName(displayName: string): string {
  let name = displayName
    .normalize("NFKC")
    .replace(/[^\p{L}\p{N}_\s.-]/gu, "")
    .trim()
    .replace(/[-\s]+/g, "-");
  const chars = [...name];
  if (chars.length > MAX_URL_NAME_LENGTH) {
    const dot = name.lastIndexOf(".");
    const extension = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : "";
    name = chars.slice(0, MAX_URL_NAME_LENGTH - [...extension].length).join("") + extension;
  }
  if (/^\.*$/.test(name)) return "uploaded-file";
  return name;
}

/** "/user_uploads/" + the path ID, each part percent-encoded (names may hold any letter). */
export const uploadUrl = (pathId: string): string => `/user_uploads/${pathId.split("/").map(encodeURIComponent).join("/")}`;

const TYPES_BY_EXTENSION: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  apng: "image/apng",
  bmp: "image/bmp",
  svg: "image/svg+xml",
  pdf: "application/pdf",
  txt: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  html: "text/html",
  htm: "text/html",
  json: "application/json",
  zip: "application/zip",
  gz: "application/gzip",
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  wav: "audio/wav",
  flac: "audio/flac",
  aac: "audio/aac",
  mp4: "video/mp4",
  webm: "video/webm",
};

/**
 * The type stored with an upload: the file part's type, if it is a well-formed media type,
 * else one guessed from the name (as the reference does), else octet-stream. (Bun's multipart
 * parser gives a part the type its name suggests, not the one its header declares.) What a
 * browser may do with it is decided when serving (isInlineContentType).
 */
export function uploadContentType(declared: string | undefined, name: string): string {
  const type = (declared ?? "").split(";", 1)[0]!.trim().toLowerCase();
  if (/^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/.test(type)) return type;
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return (extension && TYPES_BY_EXTENSION[extension]) || "application/octet-stream";
}

/**
 * Types a browser may show in place (the reference's INLINE_MIME_TYPES). Everything else is
 * served as a download: HTML, SVG and XML could run script on our origin.
 */
const INLINE_CONTENT_TYPES = new Set([
  "application/pdf",
  "audio/aac",
  "audio/flac",
  "audio/mp4",
  "audio/mpeg",
  "audio/wav",
  "audio/webm",
  "image/apng",
  "image/avif",
  "image/gif",
  "image/jpeg",
  "image/png",
  "image/webp",
  "text/plain",
  "video/mp4",
  "video/webm",
]);

export const isInlineContentType = (type: string): boolean => INLINE_CONTENT_TYPES.has(type);

/** Seconds a URL from GET /user_uploads/{realm}/{path} works without credentials (the reference's 60). */
export const TEMPORARY_URL_SECONDS = 60;

const signature = (key: Uint8Array, attachmentId: number, expires: number, pathId: string) =>
  createHmac("sha256", key).update(`${attachmentId}.${expires}.${pathId}`).digest("base64url");

/** The token of a temporary URL: which upload, until when, signed so that only we can make one. */
export function signUploadToken(key: Uint8Array, attachmentId: number, pathId: string, expires: number): string {
  return `${attachmentId}.${expires}.${signature(key, attachmentId, expires, pathId)}`;
}

/** The attachment ID a token names, for looking up its path; the token is checked by verifyUploadToken. */
export function tokenAttachmentId(token: string): number | undefined {
  const match = /^(\d{1,15})\.(\d{1,15})\.[A-Za-z0-9_-]{43}$/.exec(token);
  return match ? Number(match[1]) : undefined;
}

/** Whether the token was signed with `key` for this upload and has not expired at `now` (seconds). */
export function verifyUploadToken(key: Uint8Array, token: string, attachmentId: number, pathId: string, now: number): boolean {
  const [id, expires, given] = token.split(".");
  if (Number(id) !== attachmentId || !/^\d{1,15}$/.test(expires ?? "") || given === undefined) return false;
  const expected = Buffer.from(signature(key, attachmentId, Number(expires), pathId));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected) && Number(expires) >= now;
}
