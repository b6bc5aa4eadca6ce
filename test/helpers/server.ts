import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { MAX_REQUEST_HEAD_BYTES } from "../../src/http/requestSize";
import { dropDatabaseOf, ensureDatabaseFor } from "./testDatabase";

const ROOT = join(import.meta.dir, "..", "..");
const ENTRY = join(ROOT, "src", "main.ts");

export interface ServerOptions {
  /** Extra environment (short heartbeats, rate limits...). */
  env?: Record<string, string>;
  /** Reuse a data dir (restart tests); a fresh temp dir otherwise. */
  dataDir?: string;
  /**
   * Start with `serve --init`, which may make a new install. The default is yes for the fresh
   * temp dir the helper makes itself, no for a given dataDir (an existing install).
   */
  init?: boolean;
  /** Run a compiled binary instead of `bun src/main.ts`. */
  binary?: string;
  /** Working directory of the process (the compiled binary must not need the checkout). */
  cwd?: string;
  /**
   * Run with the default rate limits, as a real server does. Off otherwise: most tests act as
   * one person far faster than anyone could (the fuzz suite sends thousands of requests).
   */
  rateLimits?: boolean;
}

/**
 * The argv that runs the `parley` command from this checkout (or a given binary), with the
 * runtime flag package.json's scripts give it (the binary has it embedded).
 */
export function parleyCommand(binary?: string): string[] {
  return binary ? [binary] : [process.execPath, `--max-http-header-size=${MAX_REQUEST_HEAD_BYTES}`, ENTRY];
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), "parley-test-"));
}

/** Runs `parley ARGS...` to completion. */
export function runParley(args: string[], options: { env?: Record<string, string>; binary?: string; cwd?: string } = {}) {
  const result = Bun.spawnSync([...parleyCommand(options.binary), ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { exitCode: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

/** A real Parley process on a free loopback port, with its own data dir. */
export class TestServer {
  url = "";
  output = "";
  /** Whether `serve --init` is passed at each start. */
  private readonly init: boolean;
  private process: Subprocess<"ignore", "pipe", "pipe"> | null = null;
  /** PARLEY_DATABASE_URL when the suite runs on PostgreSQL (testDatabase.ts). */
  private databaseEnv: Record<string, string> = {};

  constructor(
    readonly dataDir: string,
    private readonly options: ServerOptions,
  ) {
    this.init = options.init ?? options.dataDir === undefined;
  }

  /** The one-time setup code of the latest start, as printed in its log (none once set up). */
  get setupCode(): string | undefined {
    return this.output.match(/Setup code: (\S+)\n/)?.[1];
  }

  static async start(options: ServerOptions = {}): Promise<TestServer> {
    const server = new TestServer(options.dataDir ?? tempDataDir(), options);
    server.databaseEnv = await ensureDatabaseFor(server.dataDir);
    await server.launch();
    return server;
  }

  private async launch(port = 0) {
    this.output = "";
    const init = this.init ? ["--init"] : [];
    const child = Bun.spawn([...parleyCommand(this.options.binary), "serve", ...init, "--data-dir", this.dataDir, "--host", "127.0.0.1", "--port", String(port)], {
      cwd: this.options.cwd,
      env: { ...process.env, PARLEY_LOG_LEVEL: "info", PARLEY_RATE_LIMITS: this.options.rateLimits ? "on" : "off", ...this.databaseEnv, ...this.options.env },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    this.process = child;
    const stderrRead = this.collect(child.stderr);
    const reader = child.stdout.getReader();
    const decoder = new TextDecoder();
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      this.output += decoder.decode(value);
      const match = this.output.match(/listening on (https?:\/\/127\.0\.0\.1:\d+)/);
      // The start is told in full once it says how to sign in, or which setup code to use.
      if (match && /to sign in\n|Setup code: \S+\n/.test(this.output)) {
        this.url = match[1];
        void this.pump(reader, decoder);
        return;
      }
    }
    child.kill();
    // Why it stopped is on stderr, which may still be coming when stdout has ended.
    await Promise.race([stderrRead.catch(() => {}), Bun.sleep(2_000)]);
    throw new Error(`Parley did not start:\n${this.output}`);
  }

  private async pump(reader: ReadableStreamDefaultReader<Uint8Array>, decoder: TextDecoder) {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      this.output += decoder.decode(value);
    }
  }

  private async collect(stream: ReadableStream<Uint8Array>) {
    const decoder = new TextDecoder();
    for await (const chunk of stream) this.output += decoder.decode(chunk);
  }

  /** The server's process ID while it runs (for reading its memory from /proc). */
  get pid(): number | undefined {
    return this.process?.pid;
  }

  /** Graceful stop (SIGTERM), as an operator or service manager would. Returns the exit code. */
  async stop(signal: "SIGTERM" | "SIGKILL" = "SIGTERM"): Promise<number | null> {
    if (!this.process) return null;
    const child = this.process;
    this.process = null;
    child.kill(signal);
    return await child.exited;
  }

  async restart(signal: "SIGTERM" | "SIGKILL" = "SIGTERM") {
    await this.stop(signal);
    await this.launch();
  }

  /** Starts again at the same address, as an upgraded or restarted server comes back for its open pages. */
  async startAgainOnSamePort() {
    if (this.process) throw new Error("The server is still running");
    await this.launch(Number(new URL(this.url).port));
  }

  /** Stops the server and deletes its data dir. */
  async dispose() {
    await this.stop();
    if (!this.options.dataDir) {
      await dropDatabaseOf(this.dataDir);
      rmSync(this.dataDir, { recursive: true, force: true });
    }
  }
}
