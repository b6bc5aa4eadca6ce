/**
 * Hostile message content: output stays well-formed and safe, and rendering time stays
 * proportional to the input.
 */
import { describe, expect, test } from "bun:test";
import { renderMessage } from "../../src/render/markdown";
import { expectSafeHtml, testContext } from "./renderFixtures";

const context = testContext();
const render = (content: string) => renderMessage(content, context);

/** Best of three runs, so one pause on a shared machine does not fail the test. */
function renderTimeMs(content: string): number {
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    const start = performance.now();
    render(content);
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

const repeatTo = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

test("the safety check itself rejects markup the renderer must never emit", () => {
  for (const unsafe of ["<script>x</script>", '<a href="javascript:x">x</a>', '<p onclick="x">x</p>', '<a href="//evil">x</a>', "<p>a < b</p>"]) {
    expect(() => expectSafeHtml(unsafe)).toThrow();
  }
  expectSafeHtml('<p><a href="https://a.org">a</a> &lt;b&gt;</p>');
});

describe("raw HTML is escaped", () => {
  test.each([
    "<script>alert(1)</script>",
    "<<script>script>evil()<</script>/script>",
    '<scr<script></script>ipt type="text/javascript">alert("foo");</<script></script>script<del></del>>',
    "<img src=x onerror=alert(1)>",
    '<a href="javascript:alert(1)">x</a>',
    "<script src=http://xx.com/xss.js<b>",
    "*<h1>Hello</h1>*",
    "<div>\n\n**x**\n\n</div>",
    "<!-- comment --> <?php echo 1 ?> <![CDATA[x]]>",
    "```\n</code></pre><script>alert(1)</script>\n```",
    "`</code><script>x</script>`",
  ])("%p", (content) => {
    const { html } = render(content);
    expectSafeHtml(html);
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<img src=x");
  });

  test("an exact case from Zulip", () => {
    expect(render("<h1>stay normal</h1> thanks").html).toBe("<p>&lt;h1&gt;stay normal&lt;/h1&gt; thanks</p>");
  });
});

describe("dangerous links are not links", () => {
  test.each([
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x](java\tscript:alert(1))",
    "[x](<javascript:alert(1)>)",
    "[x](&#106;avascript:alert(1))",
    "[x](data:text/html;base64,PHNjcmlwdD4=)",
    "[x](vbscript:msgbox)",
    "[x](//evil.example/path)",
    "[x](/\\evil.example)",
    "<javascript:alert(1)>",
    "javascript:alert(1)",
    "[x](https://a.org \"title\" onmouseover=\"alert(1)\")",
  ])("%p", (content) => {
    const { html } = render(content);
    expectSafeHtml(html);
    expect(html.toLowerCase()).not.toMatch(/href="(javascript|vbscript|data|\/\/)/);
  });

  test("quotes in URLs and titles cannot break out of the attribute", () => {
    const { html } = render('[x](https://a.org/"onmouseover="alert(1) "t\\"itle")');
    expectSafeHtml(html);
    expect(html).not.toContain('" onmouseover');
  });
});

describe("broken and deeply nested structure", () => {
  test("an unclosed fence runs to the end of the message", () => {
    const { html } = render("Hamlet said:\n~~~~\ndef speak(self):\n    x = 1\n@**Polonius**");
    expect(html).toBe(
      '<p>Hamlet said:</p>\n<div class="codehilite"><pre><span></span><code>def speak(self):\n' +
        "    x = 1\n@**Polonius**\n</code></pre></div>",
    );
  });

  test("an unclosed quote fence and unclosed spoiler still render safely", () => {
    for (const content of ["~~~ quote\n@**Polonius** hi", "```spoiler <b>head</b>\nbody", "```quote\n```quote\n```quote\nx"]) {
      const result = render(content);
      expectSafeHtml(result.html);
      expect(result.mentionedUserIds).toEqual([]);
    }
  });

  test("50-deep nested quotes", () => {
    const { html } = render(`${">".repeat(50)} deep @**Polonius**`);
    expectSafeHtml(html);
    expect(html.match(/<blockquote>/g)!.length).toBe(50);
    expect(html.match(/<\/blockquote>/g)!.length).toBe(50);
    expect(html).toContain('<span class="user-mention silent" data-user-id="9">Polonius</span>');
  });

  test("quote fences nested beyond the limit become code, not recursion", () => {
    const depth = 40;
    const content = Array.from({ length: depth }, (_, i) => `${"~".repeat(3 + depth - i)} quote`).join("\n") + "\nx";
    const { html } = render(content);
    expectSafeHtml(html);
    expect(html.match(/<blockquote>/g)!.length).toBeLessThan(depth);
    expect(html).toContain('class="codehilite"');
  });

  test("thousands of nesting markers stay bounded", () => {
    for (const content of [">".repeat(5000) + " x", "* ".repeat(3000) + "x", "[".repeat(5000) + "]".repeat(5000)]) {
      expectSafeHtml(render(content).html);
    }
  });
});

describe("odd Unicode", () => {
  test("zero-width, bidi override and combining characters pass through as text", () => {
    const content = "a\u200Bb \u202Eevil\u202C c\u0301\u0301\u0301 \uFEFF @**Polonius**\u200D";
    const result = render(content);
    expectSafeHtml(result.html);
    expect(result.html).toContain("a\u200Bb \u202Eevil\u202C c\u0301\u0301\u0301");
    expect(result.mentionedUserIds).toEqual([9]);
  });

  test("NUL bytes become U+FFFD", () => {
    const { html } = render("a\u0000b\u0000<script>");
    expect(html).toBe("<p>a\uFFFDb\uFFFD&lt;script&gt;</p>");
  });

  test("lone surrogates and right-to-left names do not break links or mentions", () => {
    const rtl = testContext({ users: [{ id: 40, fullName: "\u05E9\u05DC\u05D5\u05DD" }], channels: [{ id: 5, name: "\uD800x" }] });
    const result = renderMessage("@**\u05E9\u05DC\u05D5\u05DD** #**\uD800x>\uDC00t** \uD83D", rtl);
    expectSafeHtml(result.html);
    expect(result.mentionedUserIds).toEqual([40]);
    expect(result.html).toContain('href="/#narrow/channel/5-.EF.BF.BDx/topic/.EF.BF.BDt"');
  });
});

describe("long messages", () => {
  const mixed = repeatTo(
    "Some **bold** and *em* text with `code`, a [link](https://a.org/x) and https://b.org/y, " +
      "@**Polonius** @*support* #**Denmark** :smile: 🎉 fix #123\n> quoted line\n\n",
    10_000,
  );

  test("a 10,000-character message renders fully and quickly", () => {
    const result = render(mixed);
    expectSafeHtml(result.html);
    expect(result.mentionedUserIds).toEqual([9]);
    expect(result.html.match(/data-user-id="9"/g)!.length).toBeGreaterThan(20);
    expect(renderTimeMs(mixed)).toBeLessThan(200);
  });

  test.each([
    ["[", "["],
    ["*a", "*a"],
    ["#** ", "#**"],
    ["@** ", "@**"],
    ["brackets and parens", "[a]("],
    ["emphasis runs", "*a **b "],
    ["bare domains", "a.com "],
    ["emoji", "😀"],
    ["colons", ":"],
    ["angle brackets", "<"],
    ["table rows", "| a | b |\n|---|---|\n"],
    ["fences", "```\n"],
    ["issue references", "#1 "],
  ])("pathological %s input stays linear", (_name, unit) => {
    const content = repeatTo(unit, 10_000);
    expectSafeHtml(render(content).html);
    // Generous: typical runs take 5-50 ms; a super-linear blow-up would take seconds.
    expect(renderTimeMs(content)).toBeLessThan(1000);
  });
});
