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

  test("flush writes what is waiting", async () => {
    const child = runLogger(`log.info("waiting"); log.flush(); Bun.sleepSync(3000);`);
    const text = await readUntil(child.stdout, (seen) => seen.includes("INFO waiting\n"), 2500);
    expect(messages(text)).toEqual(["INFO waiting"]);
    child.kill();
    await child.exited;
  });
});
