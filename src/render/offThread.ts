import { log } from "../log";
import { createRenderContext, type RenderContextRows } from "./context";
import { renderMessage, type RenderResult } from "./markdown";

/**
 * Rendering for POST /messages on a thread of its own. Markdown is the largest part of a
 * send's CPU time that needs nothing from the database transaction, and the main thread, which
 * serves HTTP, runs every transaction and feeds the event queues, is what limits how many
 * messages a second the server takes; handing rendering to another core raised it (see
 * bench/README.md). The thread costs about 20 MB of memory, so it starts with the first
 * message, and PARLEY_RENDER_THREAD=0 keeps rendering on the main thread.
 *
 * Replies come back in request order. Should the thread fail, the requests it held are
 * rendered here instead and later ones never leave the main thread.
 */

export interface RenderRequest {
  id: number;
  content: string;
  rows: RenderContextRows;
}

export type RenderReply = { id: number; result: RenderResult } | { id: number; error: string };

interface Waiting {
  request: RenderRequest;
  resolve(result: RenderResult): void;
  reject(error: Error): void;
}

let enabled = true;
// undefined: not started yet; null: not available, render here.
let worker: Worker | null | undefined;
const waiting = new Map<number, Waiting>();
let nextId = 0;

const renderHere = (request: Pick<RenderRequest, "content" | "rows">) => renderMessage(request.content, createRenderContext(request.rows));

/** From serve's configuration; before the first render. */
export function configureRenderThread(options: { enabled: boolean }) {
  enabled = options.enabled;
}

/**
 * Run from source, this module is its own file beside worker.ts. In the compiled binary it is
 * part of the one bundle, whose URL is the binary's, and the worker entry point sits at
 * render/worker.ts from the bundle's root (src/, the entry points' common folder).
 */
function workerUrl(): string {
  const ownFile = import.meta.url.endsWith("/offThread.ts");
  return new URL(ownFile ? "./worker.ts" : "./render/worker.ts", import.meta.url).href;
}

function startWorker(): Worker | null {
  try {
    const started = new Worker(workerUrl());
    started.onmessage = ({ data }: MessageEvent<RenderReply>) => {
      const entry = waiting.get(data.id);
      if (!entry) return;
      waiting.delete(data.id);
      if ("result" in data) entry.resolve(data.result);
      else entry.reject(new Error(`Rendering failed: ${data.error}`));
    };
    started.onerror = (event) => {
      log.error(`The render thread failed (${event.message}); rendering on the main thread from now on`);
      abandon(started);
    };
    // An idle render thread must not keep the process alive.
    (started as Worker & { unref(): void }).unref();
    log.info("Rendering messages on a thread of their own");
    return started;
  } catch (error) {
    log.warn(`No render thread (${(error as Error).message}); rendering on the main thread`);
    return null;
  }
}

function abandon(failed: Worker) {
  if (worker === failed) worker = null;
  failed.terminate();
  for (const [id, entry] of waiting) {
    waiting.delete(id);
    try {
      entry.resolve(renderHere(entry.request));
    } catch (error) {
      entry.reject(error as Error);
    }
  }
}

/** Renders content with the rows its references named, off the main thread when possible. */
export function renderOffThread(content: string, rows: RenderContextRows): Promise<RenderResult> {
  if (worker === undefined) worker = enabled ? startWorker() : null;
  const thread = worker;
  if (!thread) return Promise.resolve().then(() => renderHere({ content, rows }));
  return new Promise((resolve, reject) => {
    const request = { id: nextId++, content, rows };
    waiting.set(request.id, { request, resolve, reject });
    thread.postMessage(request);
  });
}

/** Where messages are being rendered, for diagnostics and tests. */
export function renderThreadState(): "not started" | "render thread" | "main thread" {
  return worker === undefined ? "not started" : worker === null ? "main thread" : "render thread";
}

/** On shutdown, after the server stopped taking requests. */
export function stopRenderThread() {
  const running = worker;
  worker = undefined;
  if (running) abandon(running);
}
