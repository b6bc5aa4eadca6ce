/**
 * Extracts what the Zulip mobile app (zulip-flutter) requires of the JSON it parses, from its
 * json_serializable generated code, into test/fixtures/zulip-flutter-contract.json, which
 * test/clients/ checks Parley's answers and events against. The app throws on a missing
 * non-nullable field or a value of the wrong type, and a throw while parsing register or an
 * event makes it reload or give up, so these are hard requirements.
 *
 *   bun scripts/flutter-contract.ts <zulip-flutter checkout or bare git dir>
 *
 * A bare git dir is read at HEAD. Classes whose fromJson is written by hand (not generated)
 * are described in test/clients/flutterContract.ts instead.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export type FieldType =
  | { kind: "int" | "num" | "string" | "bool" | "any" | "object" }
  /** `values`: what the app accepts; absent when it maps unknown values to a fallback. */
  | { kind: "enum"; values?: (string | number)[] }
  | { kind: "class"; name: string }
  | { kind: "list" | "map"; of: FieldType };
export interface Field {
  type: FieldType;
  nullable: boolean;
}
export type ClassContract = Record<string, Field>;

const FILES = [
  ...["events", "initial_snapshot", "model", "reaction", "submessage", "permission"].map((name) => `lib/api/model/${name}.g.dart`),
  // The answers of the REST calls the app makes.
  ...["account", "channels", "events", "messages", "realm", "saved_snippets", "users"].map((name) => `lib/api/route/${name}.g.dart`),
];

function readSource(root: string, path: string): string {
  if (existsSync(join(root, "lib"))) return readFileSync(join(root, path), "utf8");
  return execFileSync("git", ["-C", root, "show", `HEAD:${path}`], { encoding: "utf8" });
}

/** The index of the bracket closing the one at `open`. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === "'") {
      i = text.indexOf("'", i + 1);
      continue;
    }
    if ("([{".includes(c)) depth++;
    else if (")]}".includes(c) && --depth === 0) return i;
  }
  throw new Error(`unbalanced from ${text.slice(open, open + 60)}`);
}

/** Splits a constructor's argument list at its top-level commas. */
function topLevelArguments(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "'") i = text.indexOf("'", i + 1);
    else if ("([{".includes(text[i])) i = closing(text, i);
    else if (text[i] === ",") {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((part) => part.trim()).filter((part) => part !== "");
}

/** The type an expression reading one JSON value (`json['k']` or a lambda's `e`) produces. */
let enumMaps: Record<string, (string | number)[]> = {};

function enumValues(source: string): Record<string, (string | number)[]> {
  const maps: Record<string, (string | number)[]> = {};
  for (const match of source.matchAll(/const _\$(\w+)EnumMap = \{([^}]*)\}/g)) {
    maps[match[1]] = [...match[2].matchAll(/:\s*('([^']*)'|-?\d+)/g)].map((value) => (value[2] !== undefined ? value[2] : Number(value[1])));
  }
  return maps;
}

function typeOf(expression: string, value: string): FieldType {
  const escaped = value.replace(/[[\]']/g, "\\$&");
  const classMatch = new RegExp(`^\\(?(\\w+)\\.(?:fromJson|tryParseFromJson)\\(\\s*\\(?${escaped}`).exec(expression.trim());
  if (classMatch && /^[A-Z]/.test(classMatch[1]) && !/Converter$/.test(classMatch[1])) return { kind: "class", name: classMatch[1] };
  const castList = new RegExp(`${escaped}\\s+as\\s+List<dynamic>\\??\\)\\??\\s*\\.map\\(\\s*\\((\\w+)\\)\\s*=>\\s*([\\s\\S]*)`).exec(expression);
  if (castList) return { kind: "list", of: typeOf(castList[2].replace(/\)\s*\.toList\(\)[\s\S]*$/, ""), castList[1]) };
  const castMap = new RegExp(`${escaped}\\s+as\\s+Map<String,\\s*dynamic>\\??\\)\\??\\s*\\.map\\(\\s*\\(\\w+,\\s*(\\w+)\\)\\s*=>\\s*MapEntry\\(\\w+,\\s*([\\s\\S]*)\\)`).exec(expression);
  if (castMap) return { kind: "map", of: typeOf(castMap[2], castMap[1]) };
  if (new RegExp(`${escaped}\\s+as\\s+Map<String,\\s*dynamic>`).test(expression)) return { kind: "object" };
  if (new RegExp(`${escaped}\\s+as\\s+num\\??\\)\\??\\.toInt\\(\\)`).test(expression)) return { kind: "int" };
  if (new RegExp(`${escaped}\\s+as\\s+num`).test(expression)) return { kind: "num" };
  if (new RegExp(`${escaped}\\s+as\\s+String`).test(expression)) return { kind: "string" };
  if (new RegExp(`${escaped}\\s+as\\s+bool`).test(expression)) return { kind: "bool" };
  const decoded = /\$enumDecode(?:Nullable)?\(\s*_\$(\w+)EnumMap/.exec(expression);
  if (decoded) return /unknownValue:/.test(expression) ? { kind: "enum" } : { kind: "enum", values: enumMaps[decoded[1]] };
  return { kind: "any" };
}

function fieldOf(expression: string, key: string): Field {
  const value = `json['${key}']`;
  const nullable =
    expression.includes(`${value} == null`) ||
    new RegExp(`${value.replace(/[[\]']/g, "\\$&")}\\s+as\\s+[\\w<>, ]+\\?`).test(expression) ||
    /\$enumDecodeNullable/.test(expression) ||
    // Passed uncast to a hand-written converter, which may well accept null.
    (expression.includes(`(${value})`) && !/\$enumDecode/.test(expression)) ||
    /\?\?/.test(expression);
  return { type: typeOf(expression, value), nullable };
}

export function extractContracts(root: string): Record<string, ClassContract> {
  const classes: Record<string, ClassContract> = {};
  for (const path of FILES) {
    const source = readSource(root, path);
    enumMaps = enumValues(source);
    for (const match of source.matchAll(/(\w+) _\$(\w+)FromJson\(\s*Map<String, dynamic> json,?\s*\) (?:=>|\{([\s\S]*?)return)\s*(?:\w+\()?/g)) {
      const open = source.indexOf("(", match.index! + match[0].length - 1);
      const body = source.slice(open + 1, closing(source, open));
      const contract: ClassContract = {};
      // `$checkKeys(requiredKeys: ...)` in a block body: keys that must be there and not null.
      const required = /requiredKeys: const \[([^\]]*)\]/.exec(match[3] ?? "")?.[1].match(/\w+/g) ?? [];
      for (const argument of topLevelArguments(body)) {
        const key = /json\['(\w+)'\]/.exec(argument)?.[1] ?? /\(json,\s*'(\w+)'\)/.exec(argument)?.[1];
        if (key === undefined) continue;
        // A readValue helper (`_readX(json, 'k')`) reads the JSON its own way: described by hand
        // in test/clients/flutterContract.ts where it matters.
        contract[key] = argument.includes(`json['${key}']`) ? fieldOf(argument, key) : { type: { kind: "any" }, nullable: true };
      }
      for (const key of required) if (contract[key]) contract[key].nullable = false;
      classes[match[2]] = contract;
    }
  }
  return classes;
}

if (import.meta.main) {
  const root = process.argv[2];
  if (!root) throw new Error("usage: bun scripts/flutter-contract.ts <zulip-flutter checkout or bare git dir>");
  const out = join(import.meta.dir, "../test/fixtures/zulip-flutter-contract.json");
  writeFileSync(out, `${JSON.stringify(extractContracts(root), null, 1)}\n`);
  console.log(`wrote ${out}`);
}
