/**
 * The render thread's entry point (render/offThread.ts starts it): renders one message per
 * request, in the order they come. Everything it needs arrives with the request; it reads no
 * database. `bun build --compile` must list this file as an entry point (package.json).
 */
import { createRenderContext } from "./context";
import { renderMessage } from "./markdown";
import type { RenderReply, RenderRequest } from "./offThread";

declare const self: Worker;

self.onmessage = ({ data }: MessageEvent<RenderRequest>) => {
  let reply: RenderReply;
  try {
    reply = { id: data.id, result: renderMessage(data.content, createRenderContext(data.rows)) };
  } catch (error) {
    reply = { id: data.id, error: (error as Error)?.stack ?? String(error) };
  }
  self.postMessage(reply);
};
