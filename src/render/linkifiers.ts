/**
 * Linkifiers (spec 2.8): an organization's patterns that turn text into links.
 *
 * Patterns run on re2js, a pure-JS port of RE2: matching is linear in the input, so a pattern
 * such as `(a+)+$` cannot stall the server the way JavaScript's backtracking RegExp would.
 * URL templates are RFC 6570, expanded by std-uritemplate with the pattern's named groups.
 * As in Zulip, a match must start after whitespace or an opening delimiter and must not run
 * into a following letter or digit, so `#12` links in "see #12." but not in "abc#12x".
 */
import { StdUriTemplate } from "@std-uritemplate/std-uritemplate";
import { RE2JS, type Matcher } from "re2js";
import { isWebUrl } from "./urls";

export interface LinkifierDefinition {
  id?: number;
  pattern: string;
  urlTemplate: string;
}

export interface CompiledLinkifier {
  readonly definition: LinkifierDefinition;
  /** The pattern wrapped in the boundary groups; group 2 is the user's whole match. */
  readonly regex: RE2JS;
  readonly groupNames: readonly string[];
}

/** A piece of text, linked when `url` is set. */
export interface TextSegment {
  text: string;
  url?: string;
}

/**
 * Work allowed for linkifiers in one message or topic. Each search is linear, but a pattern
 * like `x.*y|x` rescans the rest of the text for every match it finds, so the number of
 * matches and the time spent are capped; past either cap the rest stays plain text.
 */
export interface LinkBudget {
  matchesLeft: number;
  deadline: number;
}

export const MAX_LINKIFIER_MATCHES = 1000;
export const LINKIFIER_TIME_BUDGET_MS = 250;

export function newLinkBudget(): LinkBudget {
  return { matchesLeft: MAX_LINKIFIER_MATCHES, deadline: performance.now() + LINKIFIER_TIME_BUDGET_MS };
}

function spent(budget: LinkBudget): boolean {
  return budget.matchesLeft <= 0 || performance.now() > budget.deadline;
}

export class LinkifierError extends Error {}

// Group 1: what may precede a match; last group: what may follow it (RE2 has no lookaround).
const BEFORE_MATCH = String.raw`(^|\s|\x{85}|\pZ|['"\(,:<])`;
const AFTER_MATCH = String.raw`($|[^\pL\pN])`;
const ACTUAL_MATCH_GROUP = 2;

function compileOrExplain(pattern: string): RE2JS {
  try {
    return RE2JS.compile(pattern);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new LinkifierError(
      `Bad regular expression: ${reason.replace(/^error parsing regexp: /, "")}`,
    );
  }
}

/** Variable names used by a (syntactically valid) RFC 6570 template. */
function templateVariables(template: string): Set<string> {
  const names = new Set<string>();
  for (const [, expression] of template.matchAll(/\{([^{}]*)\}/g)) {
    for (const varspec of expression!.replace(/^[+#./;?&]/, "").split(",")) {
      names.add(varspec.replace(/(\*|:\d+)$/, ""));
    }
  }
  return names;
}

function checkTemplate(template: string, groupNames: readonly string[]): void {
  try {
    StdUriTemplate.expand(template, {});
  } catch {
    throw new LinkifierError("Invalid URL template.");
  }
  const variables = templateVariables(template);
  const groups = new Set(groupNames);
  const notInPattern = [...variables].filter((name) => !groups.has(name)).sort();
  if (notInPattern.length > 0) {
    throw new LinkifierError(
      `Group '${notInPattern[0]}' in URL template is not present in linkifier pattern.`,
    );
  }
  const notInTemplate = [...groups].filter((name) => !variables.has(name)).sort();
  if (notInTemplate.length > 0) {
    throw new LinkifierError(
      `Group '${notInTemplate[0]}' in linkifier pattern is not present in URL template.`,
    );
  }
  const sample = Object.fromEntries(groupNames.map((name) => [name, "x"]));
  if (!isWebUrl(StdUriTemplate.expand(template, sample))) {
    throw new LinkifierError("URL template must produce an http or https URL.");
  }
}

function compileUncached(definition: LinkifierDefinition): CompiledLinkifier {
  if (definition.pattern === "") throw new LinkifierError("Linkifier pattern cannot be empty.");
  // Compile the pattern alone first: "a)|(b" would otherwise escape the wrapping groups.
  const raw = compileOrExplain(definition.pattern);
  const groupNames = Object.keys(raw.namedGroups());
  checkTemplate(definition.urlTemplate, groupNames);
  // Can still fail: an unterminated `\Q` quotes the wrapper's closing parenthesis.
  const regex = compileOrExplain(`${BEFORE_MATCH}(${definition.pattern})${AFTER_MATCH}`);
  return { definition, regex, groupNames };
}

/** The message for an invalid linkifier, or null when it is valid. */
export function validateLinkifier(pattern: string, urlTemplate: string): string | null {
  try {
    compileUncached({ pattern, urlTemplate });
    return null;
  } catch (error) {
    if (error instanceof LinkifierError) return error.message;
    throw error;
  }
}

// Compiling costs far more than matching; organizations have few linkifiers and change them
// rarely, so compiled ones are kept (and the cache reset if it ever grows large).
const compiledCache = new Map<string, CompiledLinkifier>();
const COMPILED_CACHE_LIMIT = 512;

/** Compiles a linkifier; throws LinkifierError when it is invalid. */
export function compileLinkifier(definition: LinkifierDefinition): CompiledLinkifier {
  const key = `${definition.pattern}\u0000${definition.urlTemplate}`;
  const cached = compiledCache.get(key);
  if (cached) return cached.definition.id === definition.id ? cached : { ...cached, definition };
  const compiled = compileUncached(definition);
  if (compiledCache.size >= COMPILED_CACHE_LIMIT) compiledCache.clear();
  compiledCache.set(key, compiled);
  return compiled;
}

/** Compiles an organization's list in order, skipping any stored entry that is invalid. */
export function compileLinkifiers(definitions: readonly LinkifierDefinition[]): CompiledLinkifier[] {
  const compiled: CompiledLinkifier[] = [];
  for (const definition of definitions) {
    try {
      compiled.push(compileLinkifier(definition));
    } catch (error) {
      if (!(error instanceof LinkifierError)) throw error;
    }
  }
  return compiled;
}

function expandUrl(linkifier: CompiledLinkifier, matcher: Matcher): string | null {
  const values: Record<string, string> = {};
  for (const name of linkifier.groupNames) {
    const value = matcher.group(name);
    if (value !== null) values[name] = value;
  }
  try {
    const url = StdUriTemplate.expand(linkifier.definition.urlTemplate, values);
    return isWebUrl(url) ? url : null;
  } catch {
    return null;
  }
}

export interface LinkifierMatch {
  start: number;
  end: number;
  text: string;
  url: string;
}

/** Non-overlapping matches of one linkifier, left to right. */
export function findLinkifierMatches(
  text: string,
  linkifier: CompiledLinkifier,
  budget: LinkBudget = newLinkBudget(),
): LinkifierMatch[] {
  const matches: LinkifierMatch[] = [];
  // The DFA-only test is much cheaper than a capturing matcher, and most text has no match.
  if (spent(budget) || !linkifier.regex.test(text)) return matches;
  const matcher = linkifier.regex.matcher(text);
  let position = 0;
  while (!spent(budget) && position <= text.length && matcher.find(position)) {
    const start = matcher.start(ACTUAL_MATCH_GROUP);
    const end = matcher.end(ACTUAL_MATCH_GROUP);
    if (end > start) {
      const url = expandUrl(linkifier, matcher);
      if (url !== null) {
        matches.push({ start, end, text: text.slice(start, end), url });
        budget.matchesLeft -= 1;
      }
    }
    // Resume at the character after the match, so it can be the next match's delimiter.
    position = Math.max(end, matcher.start() + 1);
  }
  return matches;
}

/**
 * Splits text into plain and linked segments. Linkifiers apply in order; text an earlier one
 * linked is not offered to later ones, so earlier linkifiers win overlaps.
 */
export function linkifyText(
  text: string,
  linkifiers: readonly CompiledLinkifier[],
  budget: LinkBudget = newLinkBudget(),
): TextSegment[] {
  let segments: TextSegment[] = [{ text }];
  for (const linkifier of linkifiers) {
    const next: TextSegment[] = [];
    for (const segment of segments) {
      if (segment.url !== undefined) {
        next.push(segment);
        continue;
      }
      let cursor = 0;
      for (const match of findLinkifierMatches(segment.text, linkifier, budget)) {
        if (match.start > cursor) next.push({ text: segment.text.slice(cursor, match.start) });
        next.push({ text: match.text, url: match.url });
        cursor = match.end;
      }
      if (cursor < segment.text.length) next.push({ text: segment.text.slice(cursor) });
    }
    segments = next;
  }
  return segments;
}
