import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_JSON_DEPTH, MAX_JSON_TEXT_LENGTH, jsonTextProblem } from "../../src/http/jsonText";
import { MAX_REQUEST_HEAD_BYTES, requestHeadLimitWarning } from "../../src/http/requestSize";

describe("JSON text bounds", () => {
  test("every shape the API takes passes", () => {
    for (const text of ["[]", "[1,2,3]", '[["channel","general"]]', '[{"operator":"dm","operand":[1,2]}]', '{"new":{"direct_members":[1],"direct_subgroups":[]},"old":3}', '"plain"', "17"]) {
      expect(jsonTextProblem(text)).toBeUndefined();
    }
  });

  test("nesting is counted up to the limit and refused past it, lists and objects alike", () => {
    expect(jsonTextProblem("[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH))).toBeUndefined();
    expect(jsonTextProblem("[".repeat(MAX_JSON_DEPTH + 1) + "]".repeat(MAX_JSON_DEPTH + 1))).toContain("nested too deeply");
    expect(jsonTextProblem('{"a":'.repeat(MAX_JSON_DEPTH + 1))).toContain("nested too deeply");
    // Unclosed brackets count too: the check runs before anything knows the text is valid.
    expect(jsonTextProblem("[".repeat(MAX_JSON_DEPTH + 1))).toContain("nested too deeply");
  });

  test("brackets inside strings, escaped quotes included, are not nesting", () => {
    const inside = `"${"[".repeat(1000)}\\"${"{".repeat(1000)}"`;
    expect(jsonTextProblem(`[${inside}]`)).toBeUndefined();
    expect(jsonTextProblem(`["\\\\", ${"[".repeat(MAX_JSON_DEPTH)}]`)).toContain("nested too deeply");
  });

  test("length is bounded, and a refusal never repeats the input", () => {
    expect(jsonTextProblem("1".repeat(MAX_JSON_TEXT_LENGTH))).toBeUndefined();
    const problem = jsonTextProblem("1".repeat(MAX_JSON_TEXT_LENGTH + 1))!;
    expect(problem).toContain("too long");
    expect(problem.length).toBeLessThan(100);
  });

  test("20,000 levels are refused in well under a millisecond per kilobyte", () => {
    const deep = "[".repeat(20_000) + "]".repeat(20_000);
    const started = performance.now();
    for (let i = 0; i < 100; i++) jsonTextProblem(deep);
    expect((performance.now() - started) / 100).toBeLessThan(5);
  });
});

describe("the request head limit", () => {
  test("package.json's scripts run Bun with the limit the server expects", () => {
    const scripts = JSON.parse(readFileSync(join(import.meta.dir, "..", "..", "package.json"), "utf8")).scripts as Record<string, string>;
    expect(scripts.start).toContain(`--max-http-header-size=${MAX_REQUEST_HEAD_BYTES}`);
    // The build script compiles with the same constant (test/binary.test.ts checks the binary obeys it).
    expect(scripts.build).toStartWith("bun scripts/build.ts");
    const buildScript = readFileSync(join(import.meta.dir, "..", "..", "scripts", "build.ts"), "utf8");
    expect(buildScript).toContain("`--compile-exec-argv=--max-http-header-size=${MAX_REQUEST_HEAD_BYTES}`");
  });

  test("a server started without it says so", () => {
    expect(requestHeadLimitWarning(16 * 1024)).toContain(`--max-http-header-size=${MAX_REQUEST_HEAD_BYTES}`);
    expect(requestHeadLimitWarning(MAX_REQUEST_HEAD_BYTES)).toBeUndefined();
  });
});
