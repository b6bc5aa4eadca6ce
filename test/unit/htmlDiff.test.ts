import { describe, expect, test } from "bun:test";
import { htmlDiff } from "../../src/render/htmlDiff";

/** content_html_diff of the edit history (reads/messageEditHistory.ts). */

const INS = (text: string) => `<span class="highlight_text_inserted">${text}</span>`;
const DEL = (text: string) => `<span class="highlight_text_deleted">${text}</span>`;

describe("htmlDiff", () => {
  test("the reference's example: one word replaced", () => {
    expect(htmlDiff("<p>Hello!</p>", "<p>Howdy!</p>")).toBe(`<div><p>${DEL("Hello!")}${INS("Howdy!")}</p></div>`);
  });

  test("unchanged words stay plain; changed ones are marked in place", () => {
    expect(htmlDiff("<p>Hello big world</p>", "<p>Hello small world</p>")).toBe(`<div><p>Hello ${DEL("big")}${INS("small")} world</p></div>`);
  });

  test("identical renderings: no highlight at all", () => {
    expect(htmlDiff("<p>same <strong>text</strong></p>", "<p>same <strong>text</strong></p>")).toBe("<div><p>same <strong>text</strong></p></div>");
  });

  test("new markup is kept with its text highlighted; markup that went is dropped, its text shown deleted", () => {
    expect(htmlDiff("<p>a</p>", "<p>a <em>b</em></p>")).toBe(`<div><p>a <em>${INS("b")}</em></p></div>`);
    expect(htmlDiff("<p>a <em>b</em></p>", "<p>a</p>")).toBe(`<div><p>a ${DEL("b")}</p></div>`);
  });

  test("from and to nothing", () => {
    expect(htmlDiff("", "<p>x</p>")).toBe(`<div><p>${INS("x")}</p></div>`);
    expect(htmlDiff("<p>x</p>", "")).toBe(`<div>${DEL("x")}</div>`);
  });

  test("runs of words are one span", () => {
    expect(htmlDiff("<p>one</p>", "<p>one two three</p>")).toBe(`<div><p>one ${INS("two three")}</p></div>`);
  });

  test("a long rewrite is diffed coarsely but correctly, and quickly", () => {
    const words = (prefix: string) => Array.from({ length: 3000 }, (_, i) => `${prefix}${i}`).join(" ");
    const started = performance.now();
    const diff = htmlDiff(`<p>${words("a")}</p>`, `<p>${words("b")}</p>`);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(diff.startsWith(`<div><p>${DEL(words("a"))}${INS(words("b"))}`)).toBe(true);
  });
});
