import { createApp } from "../../src/app";
import type { HostileValue } from "./hostileValues";

/**
 * The requests the fuzz test sends, built from the app's own route table so that a route
 * added tomorrow is fuzzed without anyone touching the test.
 */

type Schema = { properties?: Record<string, unknown>; required?: string[] };
export interface Route {
  method: string;
  path: string;
  params: string[];
  /** Query parameters for reads, body parameters for writes. */
  fields: string[];
  required: string[];
}

export function routeTable(): Route[] {
  const app = createApp() as unknown as { routes: { method: string; path: string; hooks?: Record<string, Schema | undefined> }[] };
  return app.routes.map(({ method, path, hooks = {} }) => {
    const fields = (method === "GET" ? hooks.query : hooks.body) ?? {};
    return {
      method,
      path,
      params: Object.keys(hooks.params?.properties ?? {}),
      fields: Object.keys(fields.properties ?? {}),
      required: fields.required ?? [],
    };
  });
}

/** One request: where it goes, what it carries, and how the test names it in a failure. */
export interface FuzzRequest {
  label: string;
  method: string;
  path: string;
  /** Sent in the query string for reads, as the body otherwise (form-encoded unless `raw`). */
  fields: [string, string][];
  raw?: { contentType: string | null; body: string };
}

/** Values that pass validation for parameters whose name says what they hold, so a bad value elsewhere is reached. */
export type Valid = Record<string, string>;

function pathWith(route: Route, ids: Valid, override?: [string, string]): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(override?.[0] === name ? override[1] : (ids[name] ?? "1")));
}

const baseline = (route: Route, valid: Valid, except?: string): [string, string][] =>
  route.required.filter((name) => name !== except && valid[name] !== undefined).map((name) => [name, valid[name]]);

const PATH_VALUES = ["0", "-1", "99999999", "99999999999999999999999", "abc", "1.5", "%00", "🙂"];

/**
 * For one route: every parameter with the core hostile values and some (all, on a long run)
 * of the others; every path parameter with unknown and malformed IDs; and the whole request
 * malformed: empty, wrong content types, bad JSON and form bodies, a repeated parameter.
 */
export function casesFor(route: Route, values: HostileValue[], ids: Valid, valid: Valid, long: boolean, turn: { next: number }): FuzzRequest[] {
  const cases: FuzzRequest[] = [];
  const path = pathWith(route, ids);
  const extras = values.filter((value) => !value.core);
  for (const field of route.fields) {
    const chosen = long ? values : [...values.filter((value) => value.core), ...Array.from({ length: 3 }, () => extras[turn.next++ % extras.length])];
    for (const hostile of chosen) {
      cases.push({ label: `${field} = ${hostile.name}`, method: route.method, path, fields: [...baseline(route, valid, field), [field, hostile.value]] });
    }
  }
  for (const param of route.params) {
    for (const value of PATH_VALUES) cases.push({ label: `path ${param} = ${value}`, method: route.method, path: pathWith(route, ids, [param, value]), fields: baseline(route, valid) });
  }
  const write = route.method !== "GET";
  const first = route.fields[0] ?? "x";
  cases.push({ label: "nothing sent", method: route.method, path, fields: [] });
  cases.push({ label: "a parameter repeated", method: route.method, path, fields: [...baseline(route, valid), [first, valid[first] ?? "1"], [first, "2"]] });
  cases.push({ label: "unknown parameters", method: route.method, path, fields: [...baseline(route, valid), ["__proto__", "{}"], ["constructor", "x"]] });
  if (write) {
    const form = new URLSearchParams(baseline(route, valid)).toString();
    for (const [label, contentType, body] of [
      ["JSON body that is a list", "application/json", "[1,2]"],
      ["JSON body with a syntax error", "application/json", '{"a":'],
      ["JSON body nested 20,000 deep", "application/json", `{"${first}":${"[".repeat(20_000)}${"]".repeat(20_000)}}`],
      ["text body", "text/plain", "hello"],
      ["XML body", "application/xml", "<a/>"],
      ["form body under no content type", null, form],
      ["form body labelled JSON", "application/json", form],
      ["multipart without a boundary", "multipart/form-data", "--x\r\n"],
      ["multipart with a broken part", "multipart/form-data; boundary=zz", `--zz\r\nContent-Disposition: form-data; name="${first}"\r\n\r\nvalue`],
      ["form body with bad percent-encoding", "application/x-www-form-urlencoded", `${first}=%E0%A4%A&${first}=%ZZ`],
    ] as const) {
      cases.push({ label, method: route.method, path, fields: [], raw: { contentType, body } });
    }
  }
  return cases;
}
