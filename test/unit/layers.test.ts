import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * The layer rules of docs/ARCHITECTURE.md, read from the import statements of src/. A broken
 * rule fails with the offending imports, file by file.
 */

const SRC = join(import.meta.dir, "..", "..", "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** A folder under src/, or a file at its top (app.ts, config.ts ...) standing for itself. */
function unitOf(path: string): string {
  const parts = relative(SRC, path).split("/");
  return parts.length > 1 ? parts[0] : parts[0].replace(/\.tsx?$/, "");
}

interface Import {
  file: string;
  specifier: string;
  from: string;
  to: string;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[\s\S]*?\s+from\s+)?["'](\.{1,2}\/[^"']+)["']/g;

function importsOfSrc(): Import[] {
  return sourceFiles(SRC).flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(IMPORT)].flatMap((match) => {
      const target = resolve(dirname(file), match[1]);
      if (relative(SRC, target).startsWith("..")) return [];
      return [{ file: relative(SRC, file), specifier: match[1], from: unitOf(file), to: unitOf(target) }];
    }),
  );
}

const imports = importsOfSrc();
const describeImport = (i: Import) => `${i.file} imports ${i.specifier}`;

/** Strongly connected groups of more than one folder: each is an import circle. */
function circles(edges: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    indexOf.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indexOf.get(next)!));
    }
    if (low.get(node) === indexOf.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const node of edges.keys()) if (!indexOf.has(node)) visit(node);
  return found;
}

describe("layers", () => {
  test("the reader found the imports (guards this test itself)", () => {
    expect(imports.length).toBeGreaterThan(500);
    expect(imports.some((i) => i.from === "routes" && i.to === "actions")).toBe(true);
  });

  test("db/ is the ground floor: it imports nothing from the layers above it", () => {
    const above = new Set(["events", "access", "actions", "reads", "messages", "shapes", "routes", "web", "jobs", "cli", "app", "main"]);
    expect(imports.filter((i) => i.from === "db" && above.has(i.to)).map(describeImport)).toEqual([]);
  });

  test("routes read and change state only through reads/ and actions/: no db/", () => {
    expect(imports.filter((i) => i.from === "routes" && i.to === "db").map(describeImport)).toEqual([]);
  });

  test("web/client/ is browser code: it imports nothing of the server's, and the server imports none of it", () => {
    const clientDir = join(SRC, "web", "client");
    const fromClient = sourceFiles(clientDir).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(IMPORT)]
        .filter((match) => relative(clientDir, resolve(dirname(file), match[1])).startsWith(".."))
        .map((match) => `${relative(SRC, file)} imports ${match[1]}`),
    );
    expect(sourceFiles(clientDir).length).toBeGreaterThan(5);
    expect(fromClient).toEqual([]);
    const intoClient = imports.filter((i) => i.to === "web" && i.specifier.includes("client/") && !i.file.startsWith("web/client/")).map(describeImport);
    expect(intoClient).toEqual([]);
  });

  test("no import circles between folders", () => {
    const edges = new Map<string, Set<string>>();
    for (const i of imports) {
      if (i.from === i.to) continue;
      if (!edges.has(i.from)) edges.set(i.from, new Set());
      edges.get(i.from)!.add(i.to);
    }
    // Each circle with the imports inside it, grouped by folder pair, so the one to cut shows.
    const offending = circles(edges).map((group) => {
      const members = new Set(group);
      const pairs = new Map<string, string[]>();
      for (const i of imports) {
        if (i.from === i.to || !members.has(i.from) || !members.has(i.to)) continue;
        const pair = `${i.from} -> ${i.to}`;
        pairs.set(pair, [...(pairs.get(pair) ?? []), describeImport(i)]);
      }
      const lines = [...pairs].map(([pair, list]) => `${pair} (${list.length}): ${list.slice(0, 3).join("; ")}${list.length > 3 ? "; ..." : ""}`);
      return `circle ${group.join(", ")}:\n  ${lines.join("\n  ")}`;
    });
    expect(offending).toEqual([]);
  });
});
