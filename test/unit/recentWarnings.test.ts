import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { LoggedWarning } from "../../src/log";

/**
 * The warnings src/log.ts keeps for the admin console's server status (GET /server/status).
 * The logger runs in a child process, so its lines do not land in this test's output.
 */

const LOG_MODULE = join(import.meta.dir, "../../src/log.ts");

async function keptAfter(script: string): Promise<LoggedWarning[]> {
  const child = Bun.spawn([process.execPath, "-e", `import { log, recentWarnings } from ${JSON.stringify(LOG_MODULE)};\n${script}\nconsole.error(JSON.stringify(recentWarnings()));`], { stdout: "ignore", stderr: "pipe" });
  const text = await new Response(child.stderr).text();
  expect(await child.exited).toBe(0);
  return JSON.parse(text);
}

describe("recentWarnings", () => {
  test("keeps warnings and errors whatever the log level, newest first, and the latest hundred only", async () => {
    const kept = await keptAfter(`log.setLevel("error"); log.info("not kept"); log.warn("below the level"); for (let i = 0; i < 150; i++) (i % 2 ? log.warn : log.error)("line " + i);`);
    expect(kept.length).toBe(100);
    expect(kept[0]).toMatchObject({ level: "warn", message: "line 149" });
    expect(kept[1]).toMatchObject({ level: "error", message: "line 148" });
    expect(kept.at(-1)!.message).toBe("line 50");
    expect(kept.every((entry) => Number.isInteger(entry.time) && entry.time <= Date.now() / 1000)).toBe(true);
  });

  test("keeps a warning logged below the level, and leaves out lines meant for the terminal only, such as the setup code", async () => {
    const kept = await keptAfter(`log.setLevel("error"); log.warn("below the level"); log.warn("Setup code: secret-code", { remember: false }); log.error("not kept either", { remember: false });`);
    expect(kept.map((entry) => entry.message)).toEqual(["below the level"]);
  });
});
