/** Error codes clients branch on (spec 7, plus the reference's authentication codes). */
export type ErrorCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "AUTHENTICATION_FAILED"
  | "INVALID_API_KEY"
  | "USER_DEACTIVATED"
  | "REALM_DEACTIVATED"
  | "RATE_LIMIT_HIT"
  | "NOT_FOUND"
  | "STREAM_DOES_NOT_EXIST"
  | "STREAM_WILDCARD_MENTION_NOT_ALLOWED"
  | "TOPIC_WILDCARD_MENTION_NOT_ALLOWED"
  | "INVITATION_FAILED"
  | "UNAUTHORIZED_PRINCIPAL"
  | "REACTION_DOES_NOT_EXIST"
  | "REACTION_ALREADY_EXISTS"
  | "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED"
  | "BAD_EVENT_QUEUE_ID"
  | "CANNOT_DEACTIVATE_GROUP_IN_USE"
  | "REALM_UPLOAD_QUOTA"
  | "CSRF_FAILED"
  | "DISK_FULL"
  | "INTERNAL_SERVER_ERROR";

const defaultStatus: Partial<Record<ErrorCode, number>> = {
  UNAUTHORIZED: 401,
  AUTHENTICATION_FAILED: 401,
  INVALID_API_KEY: 401,
  USER_DEACTIVATED: 401,
  REALM_DEACTIVATED: 401,
  RATE_LIMIT_HIT: 429,
  CSRF_FAILED: 403,
  DISK_FULL: 507,
  NOT_FOUND: 404,
  INTERNAL_SERVER_ERROR: 500,
};

/**
 * An error the client caused or may act on. Thrown anywhere below a route and turned into the
 * spec's error envelope by the one error handler; `extra` adds the fields some codes carry.
 */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
    options: { status?: number; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = options.status ?? defaultStatus[code] ?? 400;
    this.headers = options.headers ?? {};
  }
  readonly headers: Record<string, string>;

  body() {
    return { result: "error", msg: this.message, code: this.code, ...this.extra };
  }
}

/** Shorthand for the most common failure: a BAD_REQUEST with a message saying why. */
export const badRequest = (message: string, extra: Record<string, unknown> = {}) => new ApiError("BAD_REQUEST", message, extra);

/**
 * The reference's refusals of an action reserved to a role (its require_realm_admin and
 * OrganizationOwnerRequiredError): UNAUTHORIZED_PRINCIPAL with status 400 (spec 7).
 */
export const administratorRequired = () => new ApiError("UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
export const ownerRequired = () => new ApiError("UNAUTHORIZED_PRINCIPAL", "Must be an organization owner");

/** A change refused because the server's disk is full (db/diskSpace.ts): nothing was stored. */
export const diskFull = () => new ApiError("DISK_FULL", "The server's disk is full, so nothing was saved. Try again later; an administrator needs to free some space.");

/** The success envelope (spec convention 2). */
export function success<T extends object>(data?: T): { result: "success"; msg: string } & T {
  return { result: "success", msg: "", ...(data as T) };
}
