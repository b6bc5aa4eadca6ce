import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * The layer rules, read from the tables of docs/ARCHITECTURE.md ("The folders, lowest first" and
 * "Packages kept to one layer") and checked against the imports of every file of src/. The
 * table is the list: a folder or top-level file missing from it, an import it does not allow,
 * a package imported outside its layer, or files importing each other in a loop fail here with
 * the offending imports, file by file.
 *
 * Everything that names a module counts as an import of it: `import`/`export ... from`, type-only
 * ones too (a type is still a dependency of meaning: the importer changes when it changes),
 * `import("...")` and `require("...")`.
 */

const ROOT = join(import.meta.dir, "..", "..");
const SRC = join(ROOT, "src");
const ARCHITECTURE = readFileSync(join(ROOT, "docs", "ARCHITECTURE.md"), "utf8");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The table's name for where a file of src/ sits: `db/`, `web/client/`, or a top-level file such as `config.ts`. */
function unitOf(path: string): string {
  const parts = relative(SRC, path).split("/");
  if (parts[0] === "web" && parts[1] === "client") return "web/client/";
  return parts.length > 1 ? `${parts[0]}/` : parts[0];
}

/** The file a relative specifier names, as the bundler finds it. */
function resolveFile(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile()) ?? base;
}

/** `drizzle-orm/sqlite-core` is the package `drizzle-orm`; `@scope/name/x` is `@scope/name`. */
const packageOf = (specifier: string) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/");

interface Import {
  /** The importing file, relative to src/. */
  file: string;
  specifier: string;
  from: string;
  /** The imported file relative to src/ and its unit, for imports of src/; the package otherwise. */
  target?: { file: string; unit: string };
  pkg?: string;
}

const STATIC_IMPORT = /^\s*(?:import|export)\s+(?:type\s+)?(?:[^;"'`]*?\s+from\s+)?["']([^"']+)["']/gm;
const CALL_IMPORT = /\b(?:import|require)\(\s*["']([^"']+)["']\s*\)/g;

function importsOf(file: string): Import[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(STATIC_IMPORT), ...text.matchAll(CALL_IMPORT)].map((match) => match[1]);
  const from = unitOf(file);
  return [...new Set(specifiers)].flatMap((specifier): Import[] => {
    const own = { file: relative(SRC, file), specifier, from };
    if (!specifier.startsWith(".")) return [{ ...own, pkg: packageOf(specifier) }];
    const target = resolveFile(file, specifier);
    // Outside src/: the migrations' SQL, package.json.
    if (relative(SRC, target).startsWith("..")) return [];
    return [{ ...own, target: { file: relative(SRC, target), unit: unitOf(target) } }];
  });
}

const files = sourceFiles(SRC);
const imports = files.flatMap(importsOf);
const ofSrc = imports.filter((i) => i.target);
const describeImport = (i: Import) => `${i.file} imports ${i.specifier}`;

/** The rows of the markdown table that follows `heading`, each as its cells. */
function tableAfter(heading: string): string[][] {
  const start = ARCHITECTURE.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`docs/ARCHITECTURE.md has no heading "${heading}"`);
  const lines = ARCHITECTURE.slice(start + heading.length + 2).split("\n");
  const first = lines.findIndex((line) => line.startsWith("|"));
  const rows: string[][] = [];
  for (const line of lines.slice(first)) {
    if (!line.startsWith("|")) break;
    rows.push(line.split("|").slice(1, -1).map((cell) => cell.trim()));
  }
  // The header row and the |---| row.
  return rows.slice(2);
}

const backticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]);

interface Layer {
  units: string[];
  /** The import cell's parts: `x/`, `x/` and below, nothing of ours, everything. */
  allowed: string[];
}

/**
 * "The folders, lowest first": | units | what they hold | what they may import |. The import
 * cell is a comma-separated list of: `unit`; `unit` and below (that unit and all it may import);
 * "nothing of ours"; "everything" (all of src/ but web/client/). A unit always imports its own
 * files. Anything else in the cell is a mistake in the table, reported here.
 */
const layers: Layer[] = tableAfter("## The folders, lowest first").map(([unitCell, , importCell]) => ({
  units: backticked(unitCell),
  allowed: importCell.split(",").map((part) => part.trim()),
}));
const layerOf = new Map(layers.flatMap((layer) => layer.units.map((unit) => [unit, layer] as const)));
const allUnits = [...layerOf.keys()];

function allowedImports(unit: string, seen = new Set<string>()): Set<string> {
  const allowed = new Set<string>();
  if (seen.has(unit)) return allowed;
  seen.add(unit);
  for (const part of layerOf.get(unit)?.allowed ?? []) {
    if (part === "nothing of ours") continue;
    if (part === "everything") for (const other of allUnits) if (other !== "web/client/") allowed.add(other);
    const named = /^`([^`]+)`( and below)?$/.exec(part);
    if (!named) continue;
    allowed.add(named[1]);
    if (named[2]) for (const below of allowedImports(named[1], seen)) allowed.add(below);
  }
  return allowed;
}

/** "Packages kept to one layer": | `package` | `unit`, `unit` |. */
const packageRules = tableAfter("### Packages kept to one layer").map(([packageCell, unitsCell]) => ({
  pkg: backticked(packageCell)[0],
  units: new Set(backticked(unitsCell)),
}));

/** Strongly connected groups of more than one node: each is an import circle. */
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

/** Each circle among `nodes` (of `nodeOf` an import's two ends), with the imports that close it. */
function describeCircles(nodeOf: (i: Import) => [string, string]): string[] {
  const edges = new Map<string, Set<string>>();
  for (const i of ofSrc) {
    const [from, to] = nodeOf(i);
    if (from === to) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from)!.add(to);
  }
  return circles(edges).map((group) => {
    const members = new Set(group);
    // What each member imports of the others, so the import to cut shows.
    const inside = new Map<string, Set<string>>();
    for (const i of ofSrc) {
      const [from, to] = nodeOf(i);
      if (from === to || !members.has(from) || !members.has(to)) continue;
      if (!inside.has(from)) inside.set(from, new Set());
      inside.get(from)!.add(to);
    }
    const lines = [...inside].sort().map(([from, to]) => `${from} imports ${[...to].sort().join(", ")}`);
    return `circle of ${group.length}:\n  ${lines.join("\n  ")}`;
  });
}

describe("layers", () => {
  test("the reader found the imports and the tables (guards this test itself)", () => {
    expect(ofSrc.length).toBeGreaterThan(1000);
    expect(ofSrc.some((i) => i.from === "routes/" && i.target!.unit === "actions/")).toBe(true);
    expect(imports.some((i) => i.from === "db/" && i.pkg === "bun:sqlite")).toBe(true);
    expect(imports.some((i) => i.file.startsWith("web/client/") && i.target)).toBe(true);
    expect(layers.length).toBeGreaterThan(10);
    expect(packageRules.map((rule) => rule.pkg)).toContain("drizzle-orm");
  });

  test("the folder table names every folder and top-level file of src/, once, and only those", () => {
    const present = [...new Set(files.map(unitOf))].sort();
    const named = layers.flatMap((layer) => layer.units);
    expect(present.filter((unit) => !layerOf.has(unit)).map((unit) => `${unit} has no row`)).toEqual([]);
    expect(named.filter((unit) => !present.includes(unit)).map((unit) => `${unit} has a row but no files`)).toEqual([]);
    expect(named.filter((unit, at) => named.indexOf(unit) !== at).map((unit) => `${unit} has two rows`)).toEqual([]);
  });

  test("every cell of the import column is one the rules understand", () => {
    const misread = layers.flatMap((layer) =>
      layer.allowed
        .filter((part) => part !== "nothing of ours" && part !== "everything" && !/^`[^`]+`( and below)?$/.test(part))
        .map((part) => `${layer.units.join(", ")}: "${part}"`),
    );
    const unknown = layers.flatMap((layer) => layer.allowed.flatMap((part) => backticked(part)).filter((unit) => !layerOf.has(unit)));
    expect(misread).toEqual([]);
    expect(unknown).toEqual([]);
  });

  test("each file imports only from its own folder and what its row allows", () => {
    const broken = ofSrc.filter((i) => i.target!.unit !== i.from && !allowedImports(i.from).has(i.target!.unit));
    expect(broken.map((i) => `${describeImport(i)}: ${i.from} may not import ${i.target!.unit}`)).toEqual([]);
  });

  for (const rule of packageRules) {
    test(`only ${[...rule.units].join(", ")} may import ${rule.pkg}`, () => {
      const outside = imports.filter((i) => i.pkg === rule.pkg && !rule.units.has(i.from));
      expect(outside.map((i) => `${describeImport(i)}: ${i.from} may not`).sort()).toEqual([]);
    });
  }

  test("all SQL lives in db/: no query built or run on a handle anywhere else", () => {
    // Importing drizzle-orm is caught above; a handle's builder (tx.select(), db.all(...)) needs
    // no import, so the calls themselves are looked for.
    const builder = /\b(?:tx|db|reader)\s*\.\s*(?:select|selectDistinct|insert|update|delete|run|all|get|values|transaction)\s*\(|\bsql`|\bdatabase\(\)/;
    const outside = files
      .filter((file) => unitOf(file) !== "db/" && unitOf(file) !== "web/client/")
      .flatMap((file) => readFileSync(file, "utf8").split("\n").map((line, at) => ({ file: relative(SRC, file), line, at })))
      .filter(({ line }) => builder.test(line.replace(/\/\/.*$/, "")))
      .map(({ file, line, at }) => `${file}:${at + 1}: ${line.trim()}`);
    expect(outside).toEqual([]);
  });

  test("db/ modules take their tables from db/tables.ts, which decides the dialect; only it and the schemas reach the dialects' table files", () => {
    const dialectFile = (file: string) => /^db\/(sqlite|postgres)\//.test(file);
    // schema.ts is SQLite's schema (drizzle-kit, the SQLite client); the PostgreSQL client hands its tables to drizzle the same way.
    // copyToPostgres.ts reads one dialect's tables and writes the other's.
    const reachers = new Set(["db/tables.ts", "db/schema.ts", "db/postgresClient.ts", "db/copyToPostgres.ts"]);
    const reaching = ofSrc.filter((i) => dialectFile(i.target!.file) && !dialectFile(i.file) && !reachers.has(i.file));
    expect(reaching.map(describeImport)).toEqual([]);
    const defining = files.filter((file) => !dialectFile(relative(SRC, file)) && /\b(sqliteTable|pgTable)\(/.test(readFileSync(file, "utf8")));
    expect(defining.map((file) => relative(SRC, file))).toEqual([]);
  });

  test("web/client/ is browser code: it imports nothing of the server's, and the server imports none of it", () => {
    expect(files.filter((file) => unitOf(file) === "web/client/").length).toBeGreaterThan(5);
    const crossing = ofSrc.filter((i) => (i.from === "web/client/") !== (i.target!.unit === "web/client/"));
    expect(crossing.map(describeImport)).toEqual([]);
  });

  test("a route imports no other route: what routes share lives in http/params.ts", () => {
    expect(ofSrc.filter((i) => i.from === "routes/" && i.target!.unit === "routes/").map(describeImport)).toEqual([]);
  });

  test("no import circles between folders", () => {
    expect(describeCircles((i) => [i.from, i.target!.unit])).toEqual([]);
  });

  test("no import circles between files, type-only imports included", () => {
    expect(describeCircles((i) => [i.file, i.target!.file])).toEqual([]);
  });
});
