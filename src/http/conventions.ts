import { Elysia, ValidationError } from "elysia";
import { log } from "../log";
import { ApiError } from "./errors";

/**
 * The API conventions every route shares (spec "Conventions"): how parameters are read, the
 * ignored_parameters_unsupported list, the error envelope, and the request log line.
 */

// Parameter names as the client sent them, before validation strips the unsupported ones.
const sentParameterNames = new WeakMap<Request, string[]>();
const startedAt = new WeakMap<Request, number>();

/**
 * Form bodies become plain string maps. Elysia's own multipart parser turns JSON-looking
 * values into objects, which would corrupt a message whose content happens to be "[1]";
 * here every value stays the string the client sent and the route's schema decodes it.
 */
async function parseForm(request: Request): Promise<Record<string, string | File>> {
  const form = await request.formData();
  const values: Record<string, string | File> = {};
  for (const [name, value] of form) values[name] = value;
  return values;
}

function validationMessage(error: ValidationError): { message: string; extra: Record<string, unknown> } {
  const first = error.all[0] as { path?: string; value?: unknown; summary?: string; message?: string; schema?: { elysiaMeta?: string } } | undefined;
  const name = first?.path?.split("/").filter(Boolean)[0];
  if (!first || !name) return { message: "Invalid request parameters", extra: {} };
  if (first.value === undefined) return { message: `Missing '${name}' argument`, extra: { var_name: name } };
  const meta = first.schema?.elysiaMeta;
  if ((meta === "ArrayString" || meta === "ObjectString") && typeof first.value === "string") {
    try {
      JSON.parse(first.value);
    } catch {
      return { message: `Argument '${name}' is not valid JSON.`, extra: { var_name: name } };
    }
  }
  const detail = first.summary ?? first.message ?? "invalid value";
  return { message: `Invalid '${name}' argument: ${detail}`, extra: { var_name: name } };
}

function errorResponse(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

function errorFor(error: unknown, code: unknown, request: Request): Response {
    if (error instanceof ApiError) return errorResponse(error.status, error.body(), error.headers);
    switch (code) {
      case "VALIDATION": {
        const { message, extra } = validationMessage(error as ValidationError);
        return errorResponse(400, { result: "error", msg: message, code: "BAD_REQUEST", ...extra });
      }
      case "PARSE":
        return errorResponse(400, { result: "error", msg: "Malformed request body", code: "BAD_REQUEST" });
      case "NOT_FOUND":
        return errorResponse(404, { result: "error", msg: "Endpoint not found", code: "NOT_FOUND" });
      case "INVALID_COOKIE_SIGNATURE":
      case "INVALID_FILE_TYPE":
        return errorResponse(400, { result: "error", msg: String((error as Error).message), code: "BAD_REQUEST" });
    }
    const status = (error as { status?: number }).status;
    if (typeof status === "number" && status >= 400 && status < 500) {
      return errorResponse(status, { result: "error", msg: String((error as Error).message || "Bad request"), code: "BAD_REQUEST" });
    }
    log.error(`${request.method} ${new URL(request.url).pathname} failed: ${(error as Error)?.stack ?? String(error)}`);
    return errorResponse(500, { result: "error", msg: "Internal server error", code: "INTERNAL_SERVER_ERROR" });
}

export const conventions = new Elysia({ name: "conventions" })
  .onRequest(({ request }) => {
    startedAt.set(request, performance.now());
  })
  .onParse({ as: "global" }, ({ request, contentType }) => {
    if (contentType.startsWith("application/x-www-form-urlencoded") || contentType.startsWith("multipart/form-data")) {
      return parseForm(request);
    }
  })
  .onTransform({ as: "global" }, (ctx) => {
    const query = ctx.query as Record<string, unknown>;
    if (ctx.request.method === "GET" || ctx.request.method === "HEAD") {
      sentParameterNames.set(ctx.request, Object.keys(query));
      return;
    }
    // Like the original server, accept parameters from the query string on any method; the
    // body wins when both carry one.
    const body = ctx.body && typeof ctx.body === "object" && !Array.isArray(ctx.body) ? (ctx.body as Record<string, unknown>) : {};
    ctx.body = { ...query, ...body };
    sentParameterNames.set(ctx.request, Object.keys(ctx.body as object));
  })
  .onAfterHandle({ as: "global" }, (ctx) => {
    const response = ctx.response as Record<string, unknown> | undefined;
    if (!response || typeof response !== "object" || response.result !== "success") return;
    const sent = sentParameterNames.get(ctx.request) ?? [];
    if (sent.length === 0) return;
    const isRead = ctx.request.method === "GET" || ctx.request.method === "HEAD";
    const accepted = new Set([
      ...Object.keys(((isRead ? ctx.query : ctx.body) ?? {}) as object),
      ...Object.keys((ctx.params ?? {}) as object),
    ]);
    const ignored = sent.filter((name) => !accepted.has(name));
    if (ignored.length > 0) return { ...response, ignored_parameters_unsupported: ignored };
  })
  .onError({ as: "global" }, ({ error, code, request, set }) => {
    const response = errorFor(error, code, request);
    set.status = response.status;
    return response;
  })
  .onAfterResponse({ as: "global" }, (ctx) => {
    const started = startedAt.get(ctx.request);
    const ms = started === undefined ? 0 : performance.now() - started;
    const userId = (ctx as { user?: { id: number } }).user?.id ?? "-";
    const status = ctx.responseValue instanceof Response ? ctx.responseValue.status : (ctx.set.status ?? 200);
    log.info(`${ctx.request.method} ${ctx.path} ${status} ${ms.toFixed(1)}ms user=${userId}`);
  });
