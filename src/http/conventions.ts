import { Elysia, StatusMap, type TSchema } from "elysia";
import { log } from "../log";
import { noteWriteFailure } from "../db/diskSpace";
import { ApiError, diskFull } from "./errors";
import { recordRequest } from "./metrics";
import { requestNote } from "./requestNote";
import { describeInvalidParameter, findInvalidParameter, invalidParameterFromError, type InvalidParameter } from "./invalidParameter";
import { checkJsonParameter } from "./jsonText";
import { checkRequestSize, parseBody } from "./requestSize";

/**
 * The API conventions every route shares (spec "Conventions"): how parameters are read, the
 * ignored_parameters_unsupported list, the error envelope, and the request log line.
 *
 * A function plugin rather than a named instance: explaining a validation error needs the
 * route's own schema, which only the app the plugin is applied to can give. Apply it once, to
 * the root app; route modules need nothing from it.
 */

// Parameter names as the client sent them, before validation strips the unsupported ones.
const sentParameterNames = requestNote<string[]>("sent parameter names");
const startedAt = requestNote<number>("started at");

const EVENTS_PATH = "/api/v1/events";

const isRead = (request: Request) => request.method === "GET" || request.method === "HEAD";

/**
 * The parameters a request sent that its route's schema did not keep: the success envelope's
 * ignored_parameters_unsupported. Added to every success object by the hook below; a route
 * that answers with a ready-made Response (GET /events) asks for it itself.
 */
export function ignoredParameters(request: Request, accepted: object | undefined, params?: object): string[] {
  const sent = sentParameterNames.get(request) ?? [];
  // A path parameter repeated in the body (python-zulip-api does this) was used, not ignored.
  const kept = (name: string) => (accepted !== undefined && Object.hasOwn(accepted, name)) || (params !== undefined && Object.hasOwn(params, name));
  return sent.filter((name) => !kept(name));
}

/** ignored_parameters_unsupported as a field of an answer, when there are any (for routes that answer with a Response). */
export function ignoredFields(request: Request, accepted: object | undefined, params?: object): { ignored_parameters_unsupported?: string[] } {
  const ignored = ignoredParameters(request, accepted, params);
  return ignored.length > 0 ? { ignored_parameters_unsupported: ignored } : {};
}

function jsonError(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

const badRequest = (msg: string, extra: Record<string, unknown> = {}) => jsonError(400, { result: "error", msg, code: "BAD_REQUEST", ...extra });
const internalError = () => jsonError(500, { result: "error", msg: "Internal server error", code: "INTERNAL_SERVER_ERROR" });

interface ErrorContext {
  error: unknown;
  code: unknown;
  request: Request;
  route?: string;
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

type Routes = { method: string; path: string; hooks: Record<string, unknown> }[];

type ParameterSchema = { elysiaMeta?: string; jsonEncoded?: boolean; anyOf?: ParameterSchema[] };
const isJsonEncoded = (schema: ParameterSchema): boolean =>
  schema.elysiaMeta === "ArrayString" || schema.elysiaMeta === "ObjectString" || schema.jsonEncoded === true || (schema.anyOf?.some(isJsonEncoded) ?? false);

/**
 * The parameters of each route that hold JSON text, found once per route in its declared
 * schema (query for reads, body for writes): they are bounded before validation decodes them.
 */
function jsonParametersOf(routes: Routes) {
  const found = new Map<string, string[]>();
  return (method: string, path: string): string[] => {
    const key = `${method} ${path}`;
    let names = found.get(key);
    if (names === undefined) {
      const hooks = routes.find((route) => route.path === path && route.method === method)?.hooks ?? {};
      const schema = (method === "GET" || method === "HEAD" ? hooks.query : hooks.body) as { properties?: Record<string, ParameterSchema> } | undefined;
      names = Object.entries(schema?.properties ?? {})
        .filter(([, property]) => isJsonEncoded(property))
        .map(([name]) => name);
      found.set(key, names);
    }
    return names;
  };
}

function checkJsonParameters(names: string[], values: Record<string, unknown>) {
  for (const name of names) {
    const value = values[name];
    if (typeof value === "string") checkJsonParameter(name, value);
  }
}

/** The parameter a validation error is about, found in the schemas the route declared. */
function invalidParameter(routes: Routes, ctx: ErrorContext): InvalidParameter | undefined {
  const method = ctx.request.method === "HEAD" ? "GET" : ctx.request.method;
  const hooks = routes.find((route) => route.path === ctx.route && route.method === method)?.hooks ?? {};
  for (const part of ["params", "query", "body"] as const) {
    const schema = hooks[part];
    const values = ctx[part];
    if (!schema || typeof schema !== "object" || !values || typeof values !== "object") continue;
    const invalid = findInvalidParameter(schema as TSchema, values as Record<string, unknown>);
    if (invalid) return invalid;
  }
  return invalidParameterFromError(ctx.error);
}

function errorFor(routes: Routes, ctx: ErrorContext): Response {
  const { code, request } = ctx;
  // Elysia wraps whatever a body parser throws, including our own size and depth refusals.
  const cause = code === "PARSE" ? (ctx.error as Error | null)?.cause : undefined;
  const thrown = cause instanceof ApiError ? cause : ctx.error;
  // Logged once per episode by noteWriteFailure, not here for every request it refuses.
  const error = noteWriteFailure(thrown) ? diskFull() : thrown;
  if (error instanceof ApiError) return jsonError(error.status, error.body(), error.headers);
  switch (code) {
    case "VALIDATION": {
      const invalid = invalidParameter(routes, ctx);
      return invalid ? badRequest(describeInvalidParameter(invalid), { var_name: invalid.name }) : badRequest("Invalid request parameters");
    }
    case "PARSE":
      return badRequest("Malformed request body");
    case "NOT_FOUND":
      return jsonError(404, { result: "error", msg: "Endpoint not found", code: "NOT_FOUND" });
    case "INVALID_COOKIE_SIGNATURE":
    case "INVALID_FILE_TYPE":
      return badRequest(String((error as Error).message));
  }
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === "number" && status >= 400 && status < 500) return jsonError(status, { result: "error", msg: String((error as Error).message || "Bad request"), code: "BAD_REQUEST" });
  log.error(`${request.method} ${new URL(request.url).pathname} failed: ${(error as Error)?.stack ?? String(error)}`);
  return internalError();
}

// Every hook destructures what it reads: Elysia infers from the hooks' source which parts of
// a request to prepare, and a hook that passes the whole context along makes it parse
// cookies, headers and more on every request.
export const conventions = (app: Elysia) => {
  const jsonParameters = jsonParametersOf(app.routes as unknown as Routes);
  return app
    .onRequest(({ request }) => {
      startedAt.set(request, performance.now());
      checkRequestSize(request);
    })
    .onParse({ as: "global" }, ({ request, contentType }) => {
      if (request.body) return parseBody(request, contentType);
    })
    .onTransform({ as: "global" }, (ctx) => {
      const { request, query, route } = ctx;
      if (isRead(request)) {
        sentParameterNames.set(request, Object.keys(query));
        checkJsonParameters(jsonParameters(request.method === "HEAD" ? "GET" : request.method, route), query);
        return;
      }
      // Like the original server, accept parameters from the query string on any method; the
      // body wins when both carry one.
      const sent = ctx.body;
      const body = sent && typeof sent === "object" && !Array.isArray(sent) ? (sent as Record<string, unknown>) : {};
      const merged = { ...query, ...body };
      ctx.body = merged;
      sentParameterNames.set(request, Object.keys(merged));
      checkJsonParameters(jsonParameters(request.method, route), merged);
    })
    .onAfterHandle({ as: "global" }, ({ request, response, query, body, params }) => {
      const result = response as Record<string, unknown> | undefined;
      if (!result || typeof result !== "object" || result.result !== "success") return;
      const ignored = ignoredParameters(request, (isRead(request) ? query : body) as object | undefined, params as object | undefined);
      if (ignored.length > 0) return { ...result, ignored_parameters_unsupported: ignored };
    })
    .onError({ as: "global" }, ({ error, code, request, route, params, query, body, set }) => {
      // Whatever happens here, the client gets JSON: an exception escaping this handler would
      // reach Bun's own error page, which is HTML with a stack trace.
      let response: Response;
      try {
        response = errorFor(app.routes as unknown as Routes, { error, code, request, route, params, query, body });
      } catch (failure) {
        log.error(`Error handler failed on ${request.method} ${request.url}: ${(failure as Error)?.stack ?? String(failure)}`);
        response = internalError();
      }
      set.status = response.status;
      return response;
    })
    .onAfterResponse({ as: "global" }, (ctx) => {
      const { request, path, set, responseValue } = ctx;
      const started = startedAt.get(request);
      const ms = started === undefined ? 0 : performance.now() - started;
      const userId = (ctx as { user?: { id: number } }).user?.id ?? null;
      const setStatus = set.status ?? 200;
      const status = responseValue instanceof Response ? responseValue.status : typeof setStatus === "number" ? setStatus : StatusMap[setStatus];
      const method = request.method;
      // A long-poll waits for events on purpose: timing it would drown every other GET.
      recordRequest(method, status, ms / 1000, !(path === EVENTS_PATH && method === "GET"));
      log.request(method, path, status, ms, userId);
    });
};
