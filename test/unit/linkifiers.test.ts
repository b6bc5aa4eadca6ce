import { describe, expect, test } from "bun:test";
import {
  compileLinkifier,
  compileLinkifiers,
  findLinkifierMatches,
  LinkifierError,
  linkifyText,
  validateLinkifier,
  type LinkifierDefinition,
} from "../../src/render/linkifiers";
import { renderMessage } from "../../src/render/markdown";
import { topicLinks } from "../../src/render/topicLinks";
import { testContext } from "./renderFixtures";

const issues: LinkifierDefinition = { id: 1, pattern: "#(?P<id>[0-9]+)", urlTemplate: "https://tracker.org/issues/{id}" };
const jira: LinkifierDefinition = {
  id: 2,
  pattern: "(?P<project>[A-Z]{2,10})-(?P<number>[0-9]+)",
  urlTemplate: "https://jira.org/browse/{project}-{number}",
};

function linkedSegments(text: string, definitions: LinkifierDefinition[]) {
  return linkifyText(text, compileLinkifiers(definitions)).filter((segment) => segment.url !== undefined);
}

describe("validateLinkifier", () => {
  test("valid linkifiers", () => {
    expect(validateLinkifier(issues.pattern, issues.urlTemplate)).toBeNull();
    expect(validateLinkifier(jira.pattern, jira.urlTemplate)).toBeNull();
    expect(validateLinkifier("(?i)RFC ?(?P<n>[0-9]+)", "https://www.rfc-editor.org/rfc/rfc{n}")).toBeNull();
    expect(validateLinkifier("zulip", "https://zulip.com")).toBeNull();
    expect(validateLinkifier("(?P<q>[a-z]+)!", "https://search.org/{?q}")).toBeNull();
  });

  test("invalid regular expressions", () => {
    expect(validateLinkifier("(a", "https://x.org")).toBe("Bad regular expression: missing closing ): `(a`");
    expect(validateLinkifier("a)|(b", "https://x.org")).toStartWith("Bad regular expression: ");
    expect(validateLinkifier("(?=x)", "https://x.org")).toStartWith("Bad regular expression: ");
    expect(validateLinkifier("(a)\\1", "https://x.org")).toStartWith("Bad regular expression: ");
    expect(validateLinkifier("a{1001}", "https://x.org")).toStartWith("Bad regular expression: ");
    expect(validateLinkifier("(?P<x>a)(?P<x>b)", "https://x.org/{x}")).toStartWith("Bad regular expression: ");
    expect(validateLinkifier("", "https://x.org")).toBe("Linkifier pattern cannot be empty.");
    // Valid alone, but an unterminated \Q would swallow the boundary groups around it.
    expect(validateLinkifier("\\Qa)|(b", "https://x.org")).toStartWith("Bad regular expression: ");
    expect(validateLinkifier("\\Qa.b\\E", "https://x.org")).toBeNull();
  });

  test("invalid URL templates", () => {
    for (const template of ["https://x.org/{id", "https://x.org/{i d}", "https://x.org/{id}}", "https://x.org/{}"]) {
      expect(validateLinkifier(issues.pattern, template)).toBe("Invalid URL template.");
    }
  });

  test("template variables and named groups must agree", () => {
    expect(validateLinkifier(issues.pattern, "https://x.org/{id}/{other}")).toBe(
      "Group 'other' in URL template is not present in linkifier pattern.",
    );
    expect(validateLinkifier(jira.pattern, "https://jira.org/{project}")).toBe(
      "Group 'number' in linkifier pattern is not present in URL template.",
    );
  });

  test("templates must produce web URLs", () => {
    expect(validateLinkifier(issues.pattern, "javascript:alert({id})")).toBe(
      "URL template must produce an http or https URL.",
    );
    expect(validateLinkifier(issues.pattern, "/issues/{id}")).toBe("URL template must produce an http or https URL.");
    expect(validateLinkifier("(?P<u>.+)", "{+u}")).toBe("URL template must produce an http or https URL.");
  });

  test("compileLinkifier throws the same errors; compileLinkifiers skips invalid ones", () => {
    expect(() => compileLinkifier({ pattern: "(a", urlTemplate: "https://x.org" })).toThrow(LinkifierError);
    const compiled = compileLinkifiers([{ pattern: "(a", urlTemplate: "https://x.org" }, issues]);
    expect(compiled.map((linkifier) => linkifier.definition.id)).toEqual([1]);
  });
});

describe("matching", () => {
  test("named groups fill the template, URL-encoded", () => {
    const encoded = { pattern: "ask:(?P<q>[a-z &]+)\\.", urlTemplate: "https://search.org/?q={q}" };
    expect(linkedSegments("ask:cats & dogs. ok", [encoded])).toEqual([
      { text: "ask:cats & dogs.", url: "https://search.org/?q=cats%20%26%20dogs" },
    ]);
    expect(linkedSegments("see ABC-12 now", [jira])).toEqual([{ text: "ABC-12", url: "https://jira.org/browse/ABC-12" }]);
  });

  test("matches need a boundary before and no letter or digit after", () => {
    expect(linkedSegments("#1 (#2) x#3 #4x #5. '#6' #7,#8", [issues]).map((segment) => segment.text)).toEqual([
      "#1", "#2", "#5", "#6", "#7", "#8",
    ]);
    // "#" may follow a match, but "#2" has no boundary before it (the search restarts at it).
    expect(linkedSegments("#1#2", [issues]).map((segment) => segment.text)).toEqual(["#1"]);
  });

  test("text keeps its pieces in order", () => {
    expect(linkifyText("a #1 b", compileLinkifiers([issues]))).toEqual([
      { text: "a " },
      { text: "#1", url: "https://tracker.org/issues/1" },
      { text: " b" },
    ]);
  });

  test("earlier linkifiers win overlapping matches", () => {
    const wide: LinkifierDefinition = { pattern: "#(?P<id>[0-9]+) (?P<word>[a-z]+)", urlTemplate: "https://wide.org/{id}/{word}" };
    expect(linkedSegments("see #12 abc", [issues, wide])).toEqual([{ text: "#12", url: "https://tracker.org/issues/12" }]);
    expect(linkedSegments("see #12 abc", [wide, issues])).toEqual([{ text: "#12 abc", url: "https://wide.org/12/abc" }]);
  });

  test("a match whose URL would not be a web URL stays text", () => {
    const host: LinkifierDefinition = { pattern: "at:(?P<host>[^ ]+)", urlTemplate: "https://{+host}/x" };
    expect(linkedSegments("at:example.org", [host])).toEqual([{ text: "at:example.org", url: "https://example.org/x" }]);
    expect(linkedSegments("at:/etc", [host])).toEqual([]);
  });

  test("patterns that can match nothing make no empty links", () => {
    const optional: LinkifierDefinition = { pattern: "(?P<n>[0-9]*)", urlTemplate: "https://x.org/{n}" };
    expect(linkedSegments("a 12 b", [optional])).toEqual([{ text: "12", url: "https://x.org/12" }]);
  });

  test("match positions are UTF-16 offsets", () => {
    const [match] = findLinkifierMatches("😀 é #42", compileLinkifier(issues));
    expect(match).toEqual({ start: 5, end: 8, text: "#42", url: "https://tracker.org/issues/42" });
  });
});

describe("hostile patterns cannot stall rendering", () => {
  const timeMs = (run: () => unknown) => {
    const start = performance.now();
    run();
    return performance.now() - start;
  };

  test.each([
    ["(a+)+$", "a".repeat(20_000) + "!"],
    ["(a|a)*b", "a".repeat(20_000)],
    ["(x+x+)+y", "x".repeat(20_000)],
    ["(?:a*)*c", "a".repeat(20_000)],
  ])("%p finishes quickly on a long string", (pattern, text) => {
    const linkifier = compileLinkifier({ pattern, urlTemplate: "https://x.org" });
    expect(timeMs(() => linkifyText(text, [linkifier]))).toBeLessThan(500);
  });

  test("a pattern that rescans the rest for every match is cut off by the budget", () => {
    const rescanning = compileLinkifier({ pattern: "x[\\s\\S]*y|x", urlTemplate: "https://x.org" });
    const text = "x ".repeat(5000);
    // Unbounded, this takes seconds (5,000 searches over the remaining text).
    expect(timeMs(() => linkifyText(text, [rescanning]))).toBeLessThan(1500);
    const context = testContext({ linkifiers: [{ pattern: "x[\\s\\S]*y|x", urlTemplate: "https://x.org" }] });
    expect(timeMs(() => renderMessage(text, context))).toBeLessThan(2000);
  });

  test("the number of links per message is capped", () => {
    const text = "#1 ".repeat(3000);
    expect(linkedSegments(text, [issues]).length).toBe(1000);
  });
});

describe("topicLinks", () => {
  const linkifiers = compileLinkifiers([issues, jira]);

  test("linkifier matches and bare URLs, in topic order", () => {
    expect(topicLinks("ABC-7 and #12, see https://a.org/x and zulip.com", linkifiers)).toEqual([
      { text: "ABC-7", url: "https://jira.org/browse/ABC-7" },
      { text: "#12", url: "https://tracker.org/issues/12" },
      { text: "https://a.org/x", url: "https://a.org/x" },
      { text: "zulip.com", url: "https://zulip.com" },
    ]);
  });

  test("earlier linkifiers win overlaps; bare URLs lose to linkifiers", () => {
    const hash: LinkifierDefinition = { pattern: "(?P<id>[0-9]+)#(?P<n>[0-9]+)", urlTemplate: "https://b.org/{id}/{n}" };
    expect(topicLinks("12#34", compileLinkifiers([hash, issues]))).toEqual([{ text: "12#34", url: "https://b.org/12/34" }]);
    const domain: LinkifierDefinition = { pattern: "zulip\\.com", urlTemplate: "https://linkifier.org" };
    expect(topicLinks("zulip.com", compileLinkifiers([domain]))).toEqual([
      { text: "zulip.com", url: "https://linkifier.org" },
    ]);
  });

  test("non-web links and plain topics give nothing", () => {
    expect(topicLinks("mail a@b.org about ftp://x.org", linkifiers)).toEqual([]);
    expect(topicLinks("lunch plans", linkifiers)).toEqual([]);
    expect(topicLinks("", linkifiers)).toEqual([]);
  });
});
