/** Shared rows and an HTML safety check for the render unit tests. */
import { expect } from "bun:test";
import { createRenderContext, type RenderContextRows } from "../../src/render/context";

export const users = [
  { id: 8, fullName: "King Hamlet" },
  { id: 9, fullName: "Polonius" },
  { id: 20, fullName: "Sam Twin" },
  { id: 21, fullName: "Sam Twin" },
  { id: 30, fullName: "Gone Away", isActive: false },
];

export function testContext(overrides: RenderContextRows = {}) {
  return createRenderContext({
    users,
    groups: [
      { id: 3, name: "support" },
      { id: 4, name: "old team", deactivated: true },
    ],
    channels: [
      { id: 1, name: "Denmark" },
      { id: 2, name: "dev help" },
    ],
    realmEmoji: [{ id: "101", name: "green_tick", sourceUrl: "/user_avatars/2/emoji/images/101.png" }],
    linkifiers: [{ pattern: "#(?P<id>[0-9]+)", urlTemplate: "https://github.com/org/repo/issues/{id}" }],
    realmUrl: "https://chat.example.com",
    ...overrides,
  });
}

const ALLOWED_TAGS = new Set([
  "p", "br", "strong", "em", "del", "code", "pre", "div", "span", "a", "blockquote", "ul", "ol",
  "li", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "table", "thead", "tbody", "tr", "th", "td", "img",
]);
const ALLOWED_ATTRIBUTES = new Set([
  "class", "href", "title", "data-user-id", "data-user-group-id", "data-stream-id",
  "data-code-language", "aria-label", "aria-hidden", "role", "alt", "src", "start", "style",
]);

function isSafeUrl(url: string): boolean {
  const decoded = url.replace(/&amp;/g, "&").trim().toLowerCase();
  return (
    /^(https?:\/\/|mailto:|#)/.test(decoded) ||
    (decoded.startsWith("/") && !decoded.startsWith("//") && !decoded.startsWith("/\\"))
  );
}

/** Fails unless every tag and attribute is one the renderer may emit and every URL is safe. */
export function expectSafeHtml(html: string): void {
  const problems: string[] = [];
  const text = html.replace(/<(\/?)([a-zA-Z0-9]+)([^<>]*)>/g, (tag, _slash, name: string, attributes: string) => {
    if (!ALLOWED_TAGS.has(name)) problems.push(`tag ${tag}`);
    const rest = attributes.replace(/\s([a-z-]+)="([^"<>]*)"/g, (attribute, attributeName: string, value: string) => {
      if (!ALLOWED_ATTRIBUTES.has(attributeName)) problems.push(`attribute ${attribute}`);
      if ((attributeName === "href" || attributeName === "src") && !isSafeUrl(value)) problems.push(`url ${value}`);
      if (attributeName === "style" && !/^text-align:(left|right|center)$/.test(value)) problems.push(`style ${value}`);
      return "";
    });
    if (rest.trim() !== "") problems.push(`unparsed attributes in ${tag}`);
    return "";
  });
  // Whatever is left is text: it must hold no markup at all.
  if (/[<>]/.test(text)) problems.push("raw < or > in text");
  expect(problems).toEqual([]);
}
