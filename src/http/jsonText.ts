import { badRequest } from "./errors";

/**
 * Bounds on JSON text a client sends, checked before anything parses or validates it.
 *
 * Parsing is cheap at any depth, but what comes after is not: schema checks, their error
 * reports and our own walks recurse once per level, so 20,000 nested brackets (a 40 KB
 * request) held the event loop for 15 s and grew memory to 4 GB, and at a few thousand levels
 * recursion ran out of stack. No parameter of the API nests deeper than four levels (a draft's
 * recipient list inside the drafts list; a group setting inside {new, old}), so 32 leaves room
 * for any client while keeping every later walk shallow.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * The longest JSON-encoded parameter. The largest legitimate ones are ID lists: 100,000
 * message IDs (GET /messages) take about 800,000 characters.
 */
export const MAX_JSON_TEXT_LENGTH = 1_000_000;

const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Why this text may not be parsed as a parameter's JSON (too long, nested too deep), or
 * undefined. One pass over the characters, skipping the insides of strings; it does not
 * check the text is valid JSON, which the parser does next.
 */
export function jsonTextProblem(text: string): string | undefined {
  if (text.length > MAX_JSON_TEXT_LENGTH) return `is too long (at most ${MAX_JSON_TEXT_LENGTH} characters)`;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_LIST || code === OPEN_OBJECT) {
      if (++depth > MAX_JSON_DEPTH) return `is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`;
    } else if (code === CLOSE_LIST || code === CLOSE_OBJECT) depth--;
  }
  return undefined;
}

/** Refuses a JSON-encoded parameter that breaks the bounds, naming it (spec 7: BAD_REQUEST with var_name). */
export function checkJsonParameter(name: string, text: string) {
  const problem = jsonTextProblem(text);
  if (problem) throw badRequest(`'${name}' ${problem}`, { var_name: name });
}

/**
 * Marks a plain `t.String` parameter that a route decodes as JSON itself (narrow, to,
 * principals), so the request conventions bound it like the schema-decoded ArrayString and
 * ObjectString ones: `t.String(jsonEncoded({ maxLength: ... }))`.
 */
export const jsonEncoded = <T extends object>(options: T) => ({ ...options, jsonEncoded: true as const });
