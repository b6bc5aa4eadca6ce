import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import http from "node:http";
import { gunzipSync } from "node:zlib";
import { FIRST_LOAD_BUDGET_BYTES, assertWithinBudget, measureFirstLoad, staticClosure } from "../src/web/assets/budget";
import { OWNER, startInitializedServer } from "./helpers/seed";
import type { TestServer } from "./helpers/server";
import { signInSession, type BrowserSession } from "./helpers/sessionClient";

// The first request for a page bundles the browser code, which takes a few seconds on a busy machine.
setDefaultTimeout(60_000);

/** A GET as a browser sends it, answered as it comes over the wire: compressed bytes, not decoded. */
function getOnTheWire(url: string, headers: Record<string, string>): Promise<{ status: number; encoding: string | undefined; wire: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": "gzip, deflate, br", ...headers } }, (response) => {
        const parts: Buffer[] = [];
        response.on("data", (part: Buffer) => parts.push(part));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, encoding: response.headers["content-encoding"], wire: Buffer.concat(parts) }));
      })
      .on("error", reject);
  });
}

const decoded = (response: { encoding: string | undefined; wire: Buffer }) => (response.encoding === "gzip" ? gunzipSync(response.wire) : response.wire).toString("utf8");

/**
 * The files an ES module imports before it runs: `import ... from "./x.js"`, `import "./x.js"`,
 * `export ... from "./x.js"`. An `import("./x.js")` call loads later and is not one of them.
 */
function staticImports(script: string): string[] {
  const specifiers = [...script.matchAll(/\bfrom\s*"(\.{1,2}\/[^"]+\.js)"|\bimport\s*"(\.{1,2}\/[^"]+\.js)"/g)].map((match) => match[1] ?? match[2]!);
  return [...new Set(specifiers)];
}

describe("the chat's first load on the wire", () => {
  let server: TestServer;
  let session: BrowserSession;

  beforeAll(async () => {
    server = await startInitializedServer();
    session = await signInSession(server.url, OWNER);
  });
  afterAll(() => server?.dispose());

  test("the page, its stylesheet, its script and every chunk that script imports statically: under 150 KB gzipped", async () => {
    const page = await getOnTheWire(`${server.url}/`, { cookie: session.cookie });
    expect(page.status).toBe(200);
    const html = decoded(page);
    const stylesheets = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((match) => match[1]!);
    const scripts = [...html.matchAll(/<script type="module" src="([^"]+)"/g)].map((match) => match[1]!);
    expect(stylesheets).toHaveLength(1);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatch(/^\/static\/web\/chat\/main-/);

    const sizes = new Map<string, number>([["/", page.wire.length]]);
    for (const href of stylesheets) {
      const response = await getOnTheWire(new URL(href, server.url).href, {});
      expect(response.status).toBe(200);
      expect(response.encoding).toBe("gzip");
      sizes.set(href, response.wire.length);
    }
    // Follow the module graph as the browser does, by what each script says it imports.
    const pending = scripts.map((src) => new URL(src, server.url).href);
    while (pending.length > 0) {
      const url = pending.pop()!;
      if (sizes.has(new URL(url).pathname)) continue;
      const response = await getOnTheWire(url, {});
      expect({ url, status: response.status }).toEqual({ url, status: 200 });
      expect(response.encoding).toBe("gzip");
      sizes.set(new URL(url).pathname, response.wire.length);
      for (const specifier of staticImports(decoded(response))) pending.push(new URL(specifier, url).href);
    }

    const total = [...sizes.values()].reduce((sum, bytes) => sum + bytes, 0);
    const listing = [...sizes].map(([path, bytes]) => `${(bytes / 1024).toFixed(1).padStart(7)} KB  ${path}`).join("\n");
    console.log(`chat first load on the wire: ${(total / 1024).toFixed(1)} KB of ${FIRST_LOAD_BUDGET_BYTES / 1024} KB\n${listing}`);
    expect(total).toBeLessThan(FIRST_LOAD_BUDGET_BYTES);
  });
});

describe("the budget check", () => {
  test("passes at the budget and throws above it, naming the figure and the biggest files", () => {
    const room = FIRST_LOAD_BUDGET_BYTES - measureFirstLoad([]).totalBytes;
    expect(() => assertWithinBudget(measureFirstLoad([{ path: "chat/main-a.js", gzipBytes: room }]))).not.toThrow();

    const over = measureFirstLoad([
      { path: "chat/main-a.js", gzipBytes: 40 * 1024 },
      { path: "chunks/heavy-b.js", gzipBytes: room - 40 * 1024 + 1 },
      { path: "ui/styles-c.css", gzipBytes: 0 },
    ]);
    expect(over.totalBytes).toBe(FIRST_LOAD_BUDGET_BYTES + 1);
    expect(() => assertWithinBudget(over)).toThrow(/first load is 150\.0 KB gzipped, over its budget of 150\.0 KB/);
    expect(() => assertWithinBudget(over)).toThrow(/chunks\/heavy-b\.js[\s\S]*chat\/main-a\.js/);
  });

  test("counts the chunks a script imports statically, through each other, and not those it loads with import()", () => {
    const output = (imports: Array<[string, Bun.ImportKind]>) => ({ bytes: 1, inputs: {}, exports: [], imports: imports.map(([path, kind]) => ({ path, kind })) });
    const metafile = {
      outputs: {
        "./chat/main-a.js": output([
          ["./chunks/shared-b.js", "import-statement"],
          ["./chunks/lazy-c.js", "dynamic-import"],
        ]),
        "./chunks/shared-b.js": output([["./chunks/preact-d.js", "import-statement"]]),
        "./chunks/preact-d.js": output([["./chunks/shared-b.js", "import-statement"]]),
        "./chunks/lazy-c.js": output([["./chunks/preact-d.js", "import-statement"]]),
        "./admin/main-e.js": output([["./chunks/shared-b.js", "import-statement"]]),
      },
    };
    expect(staticClosure(metafile, "chat/main-a.js")).toEqual(["chat/main-a.js", "chunks/shared-b.js", "chunks/preact-d.js"]);
  });
});
