import { afterAll, describe, expect, test } from "bun:test";
import { createRenderContext } from "../../src/render/context";
import { renderMessage } from "../../src/render/markdown";
import { renderOffThread, renderThreadState, stopRenderThread } from "../../src/render/offThread";
import { testRows } from "./renderFixtures";

// POST /messages renders on a thread of its own; it must give exactly what rendering on the
// main thread gives, and each caller its own result.

afterAll(() => stopRenderThread());

const contents = [
  "Hello from **wrk**: a message of ordinary length, with a little markdown in it.",
  "@**King Hamlet** and @_**Polonius** and @*support* see #**Denmark>castle** about #123 :green_tick: :smile:",
  "```python\nprint('<b>')\n```\n> quoted @**Polonius**\n\n- a\n- b https://example.com/x",
  "/me waves at @**all**",
  "<script>alert(1)</script> [x](javascript:alert(1))",
  "",
];

describe("the render thread", () => {
  test("renders exactly as the main thread does", async () => {
    for (const content of contents) {
      const rows = testRows();
      expect(await renderOffThread(content, rows)).toEqual(renderMessage(content, createRenderContext(rows)));
    }
    expect(renderThreadState()).toBe("render thread");
  });

  test("gives every caller its own result when many wait at once", async () => {
    const many = Array.from({ length: 200 }, (_, i) => `message **${i}** for @**King Hamlet**`);
    const results = await Promise.all(many.map((content) => renderOffThread(content, testRows())));
    results.forEach((result, i) => expect(result.html).toContain(`<strong>${i}</strong>`));
    expect(results.every((result) => result.mentionedUserIds.length === 1)).toBe(true);
  });
});
