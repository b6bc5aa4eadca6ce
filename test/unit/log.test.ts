import { describe, expect, test } from "bun:test";
import { join } from "node:path";

/**
 * The log gathers lines and writes them together (src/log.ts). These run the logger in a
 * child process and read its stdout, as an operator's log file would get it.
 */

const LOG_MODULE = join(import.meta.dir, "../../src/log.ts");

function runLogger(script: string) {
  return Bun.spawn([process.execPath, "-e", `import { log } from ${JSON.stringify(LOG_MODULE)};\n${script}`], { stdout: "pipe", stderr: "inherit" });
}

async function readUntil(stream: ReadableStream<Uint8Array>, done: (text: string) => boolean, timeoutMs: number): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + timeoutMs;
  while (!done(text) && Date.now() < deadline) {
    const chunk = await Promise.race([reader.read(), Bun.sleep(deadline - Date.now()).then(() => null)]);
    if (chunk === null || chunk.done) break;
    text += decoder.decode(chunk.value);
  }
  reader.releaseLock();
  return text;
}

const messages = (text: string) => text.split("\n").filter(Boolean).map((line) => line.split(" ").slice(1).join(" "));

describe("log", () => {
  test("every line arrives, in order, soon after it is logged", async () => {
    const child = runLogger(`for (let i = 0; i < 5000; i++) log.info("line " + i); log.debug("hidden"); await Bun.sleep(200); log.info("last");`);
    const text = await readUntil(child.stdout, (seen) => seen.includes("INFO last\n"), 5000);
    await child.exited;
    expect(messages(text)).toEqual([...Array.from({ length: 5000 }, (_, i) => `INFO line ${i}`), "INFO last"]);
  });

  test("a warning is written at once, with the lines gathered before it", async () => {
    // The child blocks its event loop after the warning, so no timer can write for it.
    const child = runLogger(`log.info("before"); log.warn("trouble"); Bun.sleepSync(3000);`);
    const started = Date.now();
    const text = await readUntil(child.stdout, (seen) => seen.includes("WARN trouble\n"), 2500);
    expect(Date.now() - started).toBeLessThan(2500);
    expect(messages(text)).toEqual(["INFO before", "WARN trouble"]);
    child.kill();
    await child.exited;
  });

  test("request lines in the text format", async () => {
    const child = runLogger(`log.request("GET", "/api/v1/users/me", 200, 1.26, 7); log.request("POST", "/login", 303, 12, null); log.flush();`);
    const text = await readUntil(child.stdout, (seen) => seen.includes("/login"), 5000);
    await child.exited;
    expect(messages(text)).toEqual(["INFO GET /api/v1/users/me 200 1.3ms user=7", "INFO POST /login 303 12.0ms user=-"]);
  });

  test("the JSON format: one object per line with time, level and msg; request lines with their fields", async () => {
    const awkward = 'said "hi" \\ and\nmore';
    const oddPath = '/odd "path"';
    const child = runLogger(
      `log.setFormat("json"); log.info(${JSON.stringify(awkward)}); log.request("GET", "/api/v1/users/me", 200, 1.26, 7); log.request("DELETE", ${JSON.stringify(oddPath)}, 404, 0.04, null); log.debug("hidden"); log.warn("trouble");`,
    );
    const text = await readUntil(child.stdout, (seen) => seen.includes("trouble"), 5000);
    await child.exited;
    expect(text.endsWith("\n")).toBe(true);
    const lines = text.split("\n").filter(Boolean).map((line) => JSON.parse(line));
    for (const line of lines) {
      expect(new Date(line.time).toISOString()).toBe(line.time);
      expect(Math.abs(Date.parse(line.time) - Date.now())).toBeLessThan(60_000);
    }
    expect(lines.map(({ time, ...rest }) => rest)).toEqual([
      { level: "info", msg: awkward },
      { level: "info", msg: "GET /api/v1/users/me 200", method: "GET", path: "/api/v1/users/me", status: 200, duration_ms: 1.3, user_id: 7 },
      { level: "info", msg: `DELETE ${oddPath} 404`, method: "DELETE", path: oddPath, status: 404, duration_ms: 0 },
      { level: "warn", msg: "trouble" },
    ]);
    expect(Object.keys(lines[2])).not.toContain("user_id");
  });

  test("flush writes what is waiting", async () => {
    const child = runLogger(`log.info("waiting"); log.flush(); Bun.sleepSync(3000);`);
    const text = await readUntil(child.stdout, (seen) => seen.includes("INFO waiting\n"), 2500);
    expect(messages(text)).toEqual(["INFO waiting"]);
    child.kill();
    await child.exited;
  });
});
