import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { closeSync, existsSync, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../package.json";
import { ApiClient } from "./helpers/client";
import { OWNER, login, ok } from "./helpers/seed";

/**
 * The Raspberry Pi binary (64-bit ARM Linux): `npm run build` makes it beside this machine's,
 * and where Debian's qemu-user-static is installed it runs here under emulation, as a person
 * would run it on a Pi: help, version, init, serve, a message sent and read back, SIGTERM.
 */

const ROOT = join(import.meta.dir, "..");
const ARM64 = "bun-linux-arm64";
/** ELF e_machine values: what a binary was compiled for. */
const ELF_MACHINE = { x64: 62, arm64: 183 } as Record<string, number>;

/** How to run an arm64 program on this machine, or why it cannot be. */
function findEmulator(): { argv: string[] } | { missing: string } {
  const qemu = Bun.which("qemu-aarch64-static") ?? Bun.which("qemu-aarch64");
  if (!qemu) return { missing: "qemu-aarch64-static not found (apt-get install qemu-user-static)" };
  // The binary is linked against glibc, so the emulator needs arm64's loader and C library:
  // Debian's libc6-arm64-cross puts them under /usr/aarch64-linux-gnu, a multiarch libc6:arm64 in /lib.
  if (existsSync("/lib/ld-linux-aarch64.so.1")) return { argv: [qemu] };
  if (existsSync("/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1")) return { argv: [qemu, "-L", "/usr/aarch64-linux-gnu"] };
  return { missing: `${qemu} found, but no arm64 C library for it (apt-get install libc6-arm64-cross)` };
}

const emulator = findEmulator();
const skipReason = "missing" in emulator ? emulator.missing : undefined;
// Said on stderr as well, so that a CI log shows why the emulated tests did not run.
if (skipReason) console.warn(`arm64 test skipped: ${skipReason}`);

/** The command line that runs the arm64 binary with these arguments. */
function underEmulation(args: string[]): string[] {
  if ("missing" in emulator) throw new Error(emulator.missing);
  return [...emulator.argv, arm64Binary, ...args];
}

let scratch: string;
let hostBinary: string;
let arm64Binary: string;

/** `npm run build`'s own command line, writing both binaries into the scratch directory. */
function buildCommand(): string[] {
  const args = pkg.scripts.build.split(/\s+/);
  expect(args.slice(0, 2)).toEqual(["bun", "scripts/build.ts"]);
  const out = args.indexOf("--outfile");
  expect(out).toBeGreaterThan(0);
  args[out + 1] = hostBinary;
  const also = args.indexOf(`${ARM64}=dist/parley-linux-arm64`);
  expect(args[also - 1]).toBe("--also");
  args[also] = `${ARM64}=${arm64Binary}`;
  return [process.execPath, ...args.slice(1)];
}

function elfMachine(path: string): number {
  const head = Buffer.alloc(20);
  const file = openSync(path, "r");
  try {
    readSync(file, head, 0, head.length, 0);
  } finally {
    closeSync(file);
  }
  expect(head.subarray(0, 4).toString("latin1")).toBe("\x7fELF");
  return head.readUInt16LE(18);
}

/** Runs the arm64 binary under the emulator to completion. */
async function runArm64(args: string[], cwd = scratch) {
  const child = Bun.spawn(underEmulation(args), { cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { exitCode, stdout, stderr };
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "parley-arm64-"));
  hostBinary = join(scratch, "parley");
  arm64Binary = join(scratch, "parley-linux-arm64");
  const build = Bun.spawnSync(buildCommand(), { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (build.exitCode !== 0) throw new Error(`build failed:\n${build.stdout.toString()}${build.stderr.toString()}`);
}, 120_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("the Raspberry Pi (arm64) binary", () => {
  test("npm run build makes it in the same run as this machine's binary", () => {
    expect(elfMachine(arm64Binary)).toBe(ELF_MACHINE.arm64);
    expect(elfMachine(hostBinary)).toBe(ELF_MACHINE[process.arch]);
  });

  test.skipIf(skipReason !== undefined)(
    "under emulation, shows its usage and its version",
    async () => {
      const [help, version] = await Promise.all([runArm64(["--help"]), runArm64(["version"])]);
      expect(help).toMatchObject({ exitCode: 0, stderr: "" });
      expect(help.stdout).toContain("Usage: parley COMMAND [OPTIONS]");
      expect(help.stdout).toMatch(/\n {2}serve +Run the server/);
      expect(version).toEqual({ exitCode: 0, stdout: `parley-${pkg.version}\n`, stderr: "" });
    },
    60_000,
  );

  test.skipIf(skipReason !== undefined)(
    "under emulation, makes an organization, serves it, stores a message and stops cleanly on SIGTERM",
    async () => {
      const init = await runArm64(["init", "--data-dir", "data", "--org-name", "Pi Org", "--email", OWNER.email, "--password", OWNER.password]);
      expect(init.stderr).toBe("");
      expect(init.exitCode).toBe(0);

      const server = Bun.spawn(underEmulation(["serve", "--data-dir", "data", "--host", "127.0.0.1", "--port", "0"]), {
        cwd: scratch,
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
      });
      let output = "";
      const stderr = new Response(server.stderr).text();
      const stdoutDone = (async () => {
        const decoder = new TextDecoder();
        for await (const chunk of server.stdout) output += decoder.decode(chunk);
      })();
      try {
        // Emulation makes the start several times slower than on the machine itself (about 2.5 s here).
        const deadline = Date.now() + 60_000;
        while (!/to sign in\n/.test(output) && server.exitCode === null && Date.now() < deadline) await Bun.sleep(50);
        const url = output.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/)?.[1];
        if (!url || !/to sign in\n/.test(output)) throw new Error(`the arm64 server did not start:\n${output}${await Promise.race([stderr, Bun.sleep(100).then(() => "")])}`);

        const owner = await login(new ApiClient(url), OWNER.email, OWNER.password);
        ok(await owner.api.post("/users/me/subscriptions", { subscriptions: [{ name: "raspberry" }] }));
        const sent = ok(await owner.api.post("/messages", { type: "channel", to: "raspberry", topic: "pi", content: "Hello from **arm64**" }));
        const read = ok(await owner.api.get("/messages", { anchor: "newest", num_before: 5, num_after: 0, narrow: [{ operator: "channel", operand: "raspberry" }] }));
        // The newest in the channel (its creation was announced in it first).
        expect(read.messages.at(-1)).toMatchObject({ id: sent.id, sender_email: OWNER.email, subject: "pi", content: "<p>Hello from <strong>arm64</strong></p>" });
        // The pages were bundled into this binary too.
        expect(await (await fetch(`${url}/login`)).text()).toContain("Sign in to Pi Org");
      } finally {
        server.kill("SIGTERM");
        await server.exited;
        await stdoutDone;
      }
      expect(server.exitCode).toBe(0);
      expect(output).toContain("Stopped cleanly");
      expect(await stderr).toBe("");
    },
    120_000,
  );
});
