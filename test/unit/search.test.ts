import { describe, expect, test } from "bun:test";
import { ftsExpression } from "../../src/db/messageSearch";
import { highlightHtml, highlightTopic, parseSearch } from "../../src/messages/search";

const HL = (word: string) => `<span class="highlight">${word}</span>`;

describe("search operand → FTS5 expression", () => {
  test("words become quoted prefix terms, all required, in content or topic only", () => {
    expect(ftsExpression(parseSearch(["Deploy failed"]))).toBe('{content topic} : ("deploy"* AND "failed"*)');
  });

  test("short words match only whole", () => {
    expect(ftsExpression(parseSearch(["go to it"]))).toBe('{content topic} : ("go" AND "to" AND "it")');
  });

  test("double-quoted parts are phrases of whole words", () => {
    const query = parseSearch(['"coffee machine" broken']);
    expect(query).toEqual({ words: ["broken"], phrases: [["coffee", "machine"]] });
    expect(ftsExpression(query)).toBe('{content topic} : ("broken"* AND "coffee machine")');
  });

  test("a conversation limits the search to its scope token", () => {
    expect(ftsExpression(parseSearch(["lunch"]), 12)).toBe('scope : "r12" AND {content topic} : ("lunch"*)');
  });

  test("query syntax in the operand is plain text", () => {
    for (const hostile of ['"', "AND(", "NEAR(a b)", "a* OR b", "col:value", "-x", "^start", "'; DROP TABLE messages; --", '"unclosed phrase', "scope:r1", "{scope}:r1"]) {
      const expression = ftsExpression(parseSearch([hostile]));
      // Only quoted words (with the prefix star) joined by AND, inside the content/topic filter.
      expect(expression).toMatch(/^\{content topic\} : \(("[\p{L}\p{N} ]+"\*?( AND "[\p{L}\p{N} ]+"\*?)*)?\)$/u);
    }
  });

  test("punctuation only leaves no words", () => {
    expect(parseSearch(['"(*)"'])).toEqual({ words: [], phrases: [] });
  });

  test("case and accents are folded", () => {
    expect(parseSearch(["Café"]).words).toEqual(["cafe"]);
  });
});

describe("highlighting", () => {
  test("matching words in text are wrapped, whole", () => {
    expect(highlightHtml("<p>We deployed today</p>", parseSearch(["deploy"]))).toBe(`<p>We ${HL("deployed")} today</p>`);
  });

  test("tags and attributes are never touched", () => {
    const html = '<p><a href="https://example.com/deploy" title="deploy">see deploy</a></p>';
    expect(highlightHtml(html, parseSearch(["deploy"]))).toBe(`<p><a href="https://example.com/deploy" title="deploy">see ${HL("deploy")}</a></p>`);
    expect(highlightHtml('<span class="user-mention" data-user-id="5">@Span</span>', parseSearch(["span"]))).toBe(
      `<span class="user-mention" data-user-id="5">@${HL("Span")}</span>`,
    );
  });

  test("character references stay whole", () => {
    expect(highlightHtml("<p>fish &amp; chips &#39;amp&#39;</p>", parseSearch(["amp"]))).toBe(`<p>fish &amp; chips &#39;${HL("amp")}&#39;</p>`);
  });

  test("short words are highlighted only whole", () => {
    expect(highlightHtml("<p>to tomorrow</p>", parseSearch(["to"]))).toBe(`<p>${HL("to")} tomorrow</p>`);
  });

  test("phrase words match whole words only", () => {
    expect(highlightHtml("<p>coffee machines and the coffee machine</p>", parseSearch(['"coffee machine"']))).toBe(
      `<p>${HL("coffee")} machines and the ${HL("coffee")} ${HL("machine")}</p>`,
    );
  });

  test("accents and case match the folded query", () => {
    expect(highlightHtml("<p>CAFÉ au lait</p>", parseSearch(["cafe"]))).toBe(`<p>${HL("CAFÉ")} au lait</p>`);
  });

  test("topics are escaped before highlighting", () => {
    expect(highlightTopic("<b>deploy</b> & co", parseSearch(["deploy"]))).toBe(`&lt;b&gt;${HL("deploy")}&lt;/b&gt; &amp; co`);
  });
});
