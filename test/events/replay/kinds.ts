import { Glob } from "bun";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Every (type, op) the server declares it sends, read from the event kinds' source rather than
 * listed by hand, so that a kind added there without an applier makes the replay test fail.
 * TypeScript 7 has no compiler API to ask, so this follows the few type forms the kinds use:
 * interfaces, aliases of unions and intersections, and object literals. It starts from the
 * unions the registry delivers (AnyEvent and QueueEvent) so that nested object types that
 * happen to have a `type` field (a typing recipient, unread message details) are not events.
 */

const EVENTS_DIR = join(import.meta.dir, "../../../src/events");
const ROOTS = ["AnyEvent", "QueueEvent"];

const stripComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"])\/\/.*$/gm, "$1");

/** The index just past the bracket that closes the one at `open`. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if ("{(<[".includes(text[i])) depth++;
    else if ("})>]".includes(text[i]) && text[i - 1] !== "=") depth--;
    if (depth === 0) return i + 1;
  }
  throw new Error(`Unbalanced brackets from ${text.slice(open, open + 40)}`);
}

/** Declarations by name: an interface's body (as an object literal) or an alias's right side. */
function declarations(): Map<string, string> {
  const found = new Map<string, string>();
  const files = [join(EVENTS_DIR, "types.ts"), ...[...new Glob("kinds/*.ts").scanSync(EVENTS_DIR)].map((file) => join(EVENTS_DIR, file))];
  for (const file of files) {
    const text = stripComments(readFileSync(file, "utf8"));
    for (const match of text.matchAll(/\binterface\s+(\w+)[^{]*\{/g)) {
      const open = match.index! + match[0].length - 1;
      found.set(match[1], text.slice(open, closing(text, open)));
    }
    for (const match of text.matchAll(/\btype\s+(\w+)\s*=/g)) {
      let end = match.index! + match[0].length;
      while (end < text.length && text[end] !== ";") end = "{(<[".includes(text[end]) ? closing(text, end) : end + 1;
      found.set(match[1], text.slice(match.index! + match[0].length, end));
    }
  }
  return found;
}

/** Splits at `separator` where no bracket is open. */
function splitTop(text: string, separator: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if ("{(<[".includes(text[i])) i = closing(text, i) - 1;
    else if (text[i] === separator && text[i - 1] !== "=") {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((part) => part.trim()).filter(Boolean);
}

interface Variant {
  type?: string[];
  op?: string[];
}

const literals = (typeText: string) => [...typeText.matchAll(/"([^"]+)"/g)].map((match) => match[1]);

/** The string literals of an object literal's own `type` and `op` members. */
function members(body: string): Variant {
  const variant: Variant = {};
  for (const member of splitTop(body.slice(1, -1), ";").flatMap((part) => splitTop(part, ","))) {
    const field = /^(type|op)\??\s*:\s*([\s\S]*)$/.exec(member);
    if (field) variant[field[1] as "type" | "op"] = literals(field[2]);
  }
  return variant;
}

function variants(typeText: string, decls: Map<string, string>): Variant[] {
  return splitTop(typeText, "|").flatMap((alternative) => {
    let merged: Variant[] = [{}];
    for (let piece of splitTop(alternative, "&")) {
      while (piece.startsWith("(") && closing(piece, 0) === piece.length) piece = piece.slice(1, -1).trim();
      const parts = piece.startsWith("{") ? [members(piece)] : decls.has(piece) ? variants(decls.get(piece)!, decls) : /[|&]/.test(piece) ? variants(piece, decls) : [{}];
      merged = merged.flatMap((left) => parts.map((right) => ({ ...left, ...right })));
    }
    return merged;
  });
}

/** "type" or "type op" for every event kind the source declares, sorted. */
export function declaredEventKinds(): string[] {
  const decls = declarations();
  const kinds = new Set<string>();
  for (const root of ROOTS) {
    const text = decls.get(root);
    if (text === undefined) throw new Error(`No declaration of ${root} under ${EVENTS_DIR}`);
    for (const variant of variants(text, decls)) {
      if (!variant.type?.length) throw new Error(`An event kind under ${root} without a literal type: ${JSON.stringify(variant)}`);
      for (const type of variant.type) for (const op of variant.op?.length ? variant.op : [undefined]) kinds.add(op === undefined ? type : `${type} ${op}`);
    }
  }
  return [...kinds].sort();
}
