import type { Params } from "../helpers/client";
import type { StallOrg } from "./organization";

/**
 * What the stall test knows about each route: its most expensive legal input, or why it has
 * none. Keyed by "METHOD path" as the app's route table names them (test/fuzz/routeCases.ts),
 * so a route added without an entry fails the test.
 */

/** Route classes, for the figures: the worst wait is reported per class. */
export type RouteClass =
  | "flags"
  | "mark as read"
  | "moves and edits"
  | "deletes"
  | "subscriptions"
  | "channels"
  | "users"
  | "groups"
  | "reads and searches"
  | "register and events"
  | "sends and rendering"
  | "uploads"
  | "settings"
  | "pages";

/** Who sends it: a person of the organization (HTTP Basic), the member's bot, the owner signed in with a browser session, or nobody. */
export type Caller = "owner" | "admin" | "moderator" | "member" | "guest" | "leaver" | "bot" | "ownerSession" | "nobody";

export interface ExpensiveCase {
  class: RouteClass;
  /** What makes this input the most expensive one the route accepts. */
  input: string;
  as: Caller;
  /** The path with its parameters filled in (the route's own path when it has none). */
  path?: (org: StallOrg) => string;
  params?: (org: StallOrg) => Params;
  multipart?: boolean;
  /** Repeated while this says the work is not done, as a client does with `complete: false`. */
  again?: (body: Record<string, unknown>) => boolean;
  /** The status it must answer (200 unless said otherwise): some inputs are refused, cheaply. */
  status?: number;
}

/** A route whose work does not grow with anything a caller controls, and why. */
export interface NoExpensiveInput {
  none: string;
}

/** One case, or several when a route's cost grows along more than one input. */
export type CaseEntry = ExpensiveCase | ExpensiveCase[] | NoExpensiveInput;
export type CaseList = Record<string, CaseEntry>;

/** The cases of an entry (none for a route without an expensive input). */
export const casesOf = (entry: CaseEntry): ExpensiveCase[] => (Array.isArray(entry) ? entry : "none" in entry ? [] : [entry]);

/** Integers from `first` to `last`. */
export const range = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, i) => first + i);
