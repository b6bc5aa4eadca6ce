import { Elysia, t } from "elysia";
import { removeAttachment } from "../actions/attachments";
import { theOneFile, uploadFile } from "../actions/uploads";
import { authenticate, authentication } from "../http/auth";
import { requestLimits } from "../http/requestLimits";
import { ApiError, success } from "../http/errors";
import { isInlineContentType } from "../model/uploads";
import { type Download, downloadFor, downloadForToken, listOwnAttachments, temporaryUploadUrl } from "../reads/attachments";
import { getUploadUsage } from "../reads/uploadUsage";

/**
 * Uploads (the reference's /user_uploads and /attachments): uploading, listing and deleting
 * one's files through the API, and downloading them at /user_uploads/..., outside /api/v1,
 * where clients fetch the links messages hold.
 */

const notFound = () => new ApiError("BAD_REQUEST", "This file does not exist or has been deleted.", {}, { status: 404 });

/**
 * The path after /user_uploads/{realm}/, from the request URL itself (Elysia's wildcard
 * parameter is not decoded the same way everywhere): decoded part by part; a part that does
 * not decode, or that is empty, "." or "..", names no upload.
 */
function uploadPath(url: string, prefix: string): { realmId: string; path: string } {
  const start = url.indexOf(prefix, url.indexOf("//") + 2);
  const query = url.search(/[?#]/);
  const raw = url.slice(start + prefix.length, query === -1 ? undefined : query);
  let parts: string[];
  try {
    parts = raw.split("/").map(decodeURIComponent);
  } catch {
    throw notFound();
  }
  if (parts.length < 2 || parts.some((part) => part === "" || part === "." || part === "..")) throw notFound();
  return { realmId: parts[0]!, path: parts.slice(1).join("/") };
}

/** `filename` for ASCII-only readers, `filename*` (RFC 6266) with the real name. */
function contentDisposition(kind: "inline" | "attachment", name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Uploaded bytes as a browser may safely get them: only types that cannot run script are
 * shown in place, everything else is a download; the declared type is final (nosniff); and
 * the CSP forbids script and sandboxes the document, should an HTML or SVG file be opened
 * anyway. (PDF viewers refuse sandboxed documents, and run no page script of ours.)
 */
function fileResponse(download: Download): Response {
  const inline = isInlineContentType(download.contentType);
  const sandbox = download.contentType === "application/pdf" ? "" : "; sandbox";
  return new Response(Bun.file(download.path), {
    headers: {
      "content-type": download.contentType,
      "content-disposition": contentDisposition(inline ? "inline" : "attachment", download.name),
      "x-content-type-options": "nosniff",
      "content-security-policy": `default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'${sandbox}`,
      // Who may read a file can change (a message deleted): shared caches must not keep it.
      "cache-control": "private, max-age=3600",
      "referrer-policy": "no-referrer",
    },
  });
}

/** Every File among the parsed body's values (forms become string maps, see http/requestSize.ts). */
const filesIn = (body: unknown): File[] => (body && typeof body === "object" && !Array.isArray(body) ? Object.values(body).filter((value): value is File => value instanceof File) : []);

const AttachmentIdParams = t.Object({ attachment_id: t.Numeric({ multipleOf: 1 }) });

export const uploadRoutes = new Elysia()
  .use(authentication)
  .use(requestLimits)
  .post(
    "/user_uploads",
    async ({ user, body }) => {
      const file = theOneFile(filesIn(body));
      return success(await uploadFile(user, { name: file.name, type: file.type, bytes: new Uint8Array(await file.arrayBuffer()) }));
    },
    { auth: true, limit: "uploads" },
  )
  .get(
    "/user_uploads/:realm_id/*",
    async ({ user, request }) => {
      const { realmId, path } = uploadPath(request.url, "/api/v1/user_uploads/");
      return success({ url: await temporaryUploadUrl(user, realmId, path) });
    },
    { auth: true, query: t.Object({}) },
  )
  .get("/attachments", async ({ user }) => success(await listOwnAttachments(user)), { auth: true, query: t.Object({}) })
  // Parley addition: the quotas and who uses how much of them, for the console.
  .get("/realm/upload_usage", async ({ user }) => success(await getUploadUsage(user)), { auth: true, query: t.Object({}) })
  .delete(
    "/attachments/:attachment_id",
    async ({ user, params }) => {
      await removeAttachment(user, params.attachment_id);
      return success();
    },
    { auth: true, params: AttachmentIdParams, body: t.Object({}) },
  );

export const uploadFileRoutes = new Elysia()
  .get("/user_uploads/temporary/:token/:filename", async ({ params }) => fileResponse(await downloadForToken(params.token, params.filename)), {
    params: t.Object({ token: t.String({ maxLength: 200 }), filename: t.String({ maxLength: 1000 }) }),
    query: t.Object({}),
  })
  .get(
    "/user_uploads/:realm_id/*",
    async ({ request }) => {
      // Credentials are optional here: without them, only files spectators may see are served.
      const header = request.headers.get("authorization");
      const viewer = header === null ? null : await authenticate(header);
      const { realmId, path } = uploadPath(request.url, "/user_uploads/");
      return fileResponse(await downloadFor(viewer, realmId, path));
    },
    { query: t.Object({}) },
  );
