import { badRequest } from "../http/errors";

/**
 * Narrows as GET /messages, matches_narrow and flags/narrow take them (the reference's
 * "construct a narrow"): a JSON list whose terms are either the legacy pair
 * ["operator", "operand"] or {operator, operand, negated}. Parsing checks shape and operand
 * types and maps legacy operator names to their current ones; what an operand refers to
 * (a channel, a user) is resolved later, against the database (narrowQuery.ts).
 */

export type IsOperand = "dm" | "starred" | "mentioned" | "unread" | "alerted" | "resolved" | "followed" | "muted";
export type HasOperand = "link" | "image" | "attachment" | "reaction";

/** A user named by ID or by API e-mail address. */
export type UserRef = number | string;

export type NarrowTerm = { negated: boolean } & (
  | { operator: "channel"; operand: number | string }
  | { operator: "channels"; operand: "public" | "web-public" }
  | { operator: "topic"; operand: string }
  | { operator: "dm"; operand: UserRef[] }
  | { operator: "dm-including"; operand: UserRef }
  | { operator: "sender"; operand: UserRef }
  | { operator: "id" | "near" | "with"; operand: number }
  | { operator: "is"; operand: IsOperand }
  | { operator: "has"; operand: HasOperand }
  | { operator: "in"; operand: "home" | "all" }
  | { operator: "search"; operand: string }
);

export type Operator = NarrowTerm["operator"];

/** Older names the reference still accepts, mapped to the current ones. */
const ALIASES: Record<string, Operator> = {
  stream: "channel",
  streams: "channels",
  subject: "topic",
  "pm-with": "dm",
  "group-pm-with": "dm-including",
};

const IS_OPERANDS: Record<string, IsOperand> = {
  dm: "dm",
  private: "dm",
  starred: "starred",
  mentioned: "mentioned",
  unread: "unread",
  alerted: "alerted",
  resolved: "resolved",
  followed: "followed",
  muted: "muted",
};
const HAS_OPERANDS = new Set<string>(["link", "image", "attachment", "reaction"]);
const CHANNELS_OPERANDS = new Set<string>(["public", "web-public"]);
const IN_OPERANDS = new Set<string>(["home", "all"]);

/** The reference's wording for a narrow that parses but names something unusable. */
export const badNarrow = (description: string) => badRequest(`Invalid narrow operator: ${description}`);

const invalid = (detail: string) => badRequest(`Invalid 'narrow': ${detail}`);

/** Parses the `narrow` parameter's JSON text. An absent parameter is the empty narrow. */
export function parseNarrowParameter(raw: string | undefined): NarrowTerm[] {
  if (raw === undefined) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw badRequest("Argument 'narrow' is not valid JSON.", { var_name: "narrow" });
  }
  return parseNarrow(value);
}

/** Checks a decoded narrow and returns its terms in canonical form. */
export function parseNarrow(value: unknown): NarrowTerm[] {
  if (!Array.isArray(value)) throw invalid("it must be a list of terms.");
  return value.map((term, index) => parseTerm(term, index));
}

function parseTerm(term: unknown, index: number): NarrowTerm {
  let operator: unknown;
  let operand: unknown;
  let negated: unknown = false;
  if (Array.isArray(term)) {
    if (term.length !== 2 || term.some((part) => typeof part !== "string")) throw invalid(`term ${index} is not a pair of strings.`);
    [operator, operand] = term;
  } else if (term !== null && typeof term === "object") {
    const fields = term as Record<string, unknown>;
    const unknownField = Object.keys(fields).find((key) => key !== "operator" && key !== "operand" && key !== "negated");
    if (unknownField) throw invalid(`term ${index} has an unknown field '${unknownField}'.`);
    ({ operator, operand } = fields);
    negated = fields.negated ?? false;
    if (operator === undefined || operator === null) throw invalid(`term ${index} has no operator.`);
    if (operand === undefined || operand === null) throw invalid(`term ${index} has no operand.`);
  } else {
    throw invalid(`term ${index} must be an object or a pair of strings.`);
  }
  if (typeof operator !== "string") throw invalid(`the operator of term ${index} is not a string.`);
  if (typeof negated !== "boolean") throw invalid(`'negated' of term ${index} is not a boolean.`);
  return { ...parseOperand(ALIASES[operator] ?? operator, operand, index), negated } as NarrowTerm;
}

type Untagged = Omit<NarrowTerm, "negated">;

function parseOperand(operator: string, operand: unknown, index: number): Untagged {
  const expect = (what: string) => invalid(`the operand of term ${index} (${operator}) must be ${what}.`);
  switch (operator) {
    case "channel": {
      if (isId(operand)) return { operator, operand };
      if (typeof operand !== "string") throw expect("a channel name or ID");
      return { operator, operand };
    }
    case "channels":
      return { operator, operand: oneOf(operand, CHANNELS_OPERANDS, "channels") as "public" | "web-public" };
    case "topic":
      if (typeof operand !== "string") throw expect("a string");
      return { operator, operand };
    case "dm":
      return { operator, operand: userList(operand, expect) };
    case "dm-including":
    case "sender":
      return { operator, operand: userRef(operand, expect) };
    case "id":
    case "near":
    case "with": {
      const id = messageId(operand);
      if (id === undefined) throw badNarrow(`invalid message ID '${String(operand)}' for '${operator}'`);
      return { operator, operand: id };
    }
    case "is": {
      const value = typeof operand === "string" ? IS_OPERANDS[operand] : undefined;
      if (!value) throw badNarrow(`unknown 'is' operand ${String(operand)}`);
      return { operator, operand: value };
    }
    case "has":
      return { operator, operand: oneOf(operand, HAS_OPERANDS, "has") as HasOperand };
    case "in":
      return { operator, operand: oneOf(operand, IN_OPERANDS, "in") as "home" | "all" };
    case "search":
      if (typeof operand !== "string" || operand.trim() === "") throw expect("a non-empty string");
      return { operator, operand };
    default:
      throw badNarrow(`unknown operator ${operator}`);
  }
}

function oneOf(operand: unknown, allowed: Set<string>, operator: string): string {
  if (typeof operand !== "string" || !allowed.has(operand)) throw badNarrow(`unknown '${operator}' operand ${String(operand)}`);
  return operand;
}

const isId = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value > 0;
const DIGITS = /^[0-9]{1,15}$/;

/** A message ID, as a number or (legacy pairs carry only strings) a string of digits. */
function messageId(operand: unknown): number | undefined {
  if (isId(operand)) return operand;
  if (typeof operand === "string" && DIGITS.test(operand.trim())) return Number(operand.trim());
  return undefined;
}

/** A user ID, or an e-mail address; a string of digits is an ID (e-mail addresses have an @). */
function userRef(operand: unknown, expect: (what: string) => Error): UserRef {
  if (isId(operand)) return operand;
  if (typeof operand !== "string" || operand.trim() === "") throw expect("a user ID or e-mail address");
  const text = operand.trim();
  return DIGITS.test(text) ? Number(text) : text;
}

/** A list of user IDs, or a comma-separated string of e-mail addresses (or IDs). */
function userList(operand: unknown, expect: (what: string) => Error): UserRef[] {
  if (Array.isArray(operand)) {
    if (operand.length === 0 || !operand.every(isId)) throw expect("a list of user IDs");
    return operand;
  }
  if (isId(operand)) return [operand];
  if (typeof operand !== "string") throw expect("a list of user IDs or a comma-separated list of e-mail addresses");
  const parts = operand.split(",").map((part) => part.trim()).filter((part) => part !== "");
  if (parts.length === 0) throw expect("a list of user IDs or a comma-separated list of e-mail addresses");
  return parts.map((part) => (DIGITS.test(part) ? Number(part) : part));
}

/** Whether the narrow searches message text (GET /messages then adds match_content/match_subject). */
export const searchTerms = (narrow: NarrowTerm[]) =>
  narrow.filter((term): term is Extract<NarrowTerm, { operator: "search" }> => term.operator === "search" && !term.negated);
