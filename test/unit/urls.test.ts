import { describe, expect, test } from "bun:test";
import { LinkifyIt } from "linkify-it";
import { createBareUrlDetector, mayHoldLink } from "../../src/render/urls";

// The bare-URL detector skips linkify-it for text that cannot hold a link (mayHoldLink). That
// shortcut must never change what is found: compare with linkify-it itself, set up the same way.
function ungated(emails: boolean): LinkifyIt {
  const plain = new LinkifyIt().set({ fuzzyLink: true, fuzzyEmail: emails, fuzzyIP: false });
  return plain.tlds(createBareUrlDetector({ emails }).__opts__.tlds);
}

const samples = [
  "Hello from **wrk**: a message of ordinary length, with a little markdown in it.",
  "see example.com and EXAMPLE.ORG/path?q=1#x, or www.example.net",
  "mail me at someone@example.co.uk please",
  "http://localhost:8080/x and https://10.0.0.1/ and ftp://files.example.org",
  "//cdn.example.com/lib.js",
  "mailto:someone@example.com",
  "MAILTO:Someone@Example.com",
  "пример.рф and xn--e1afmkfd.xn--p1ai",
  "e.g. this, i.e. that, readme.md and views.py",
  "ends with it. And then. Another!",
  "localhost:8080/path",
  "1.2.3.4 and 192.168.0.1:80",
  "a.b c.d3 x.y.z",
  "weird: x://y ://z http:/ https:",
  "",
  ".",
  "@",
  "user@host",
  "café.fr — naïve.example",
  "tab\tseparated.example\tvalues",
];

const alphabet = ["a", "b", "x", "e", "m", "o", "c", "r", "f", ".", ".", "/", "/", ":", "@", " ", "-", "_", "1", "9", "w", "h", "t", "p", "s", "l", "i", "(", ")", "é", "р", "ф", "?", "#", "\n"];

// Deterministic pseudo-random strings, so a failure can be reproduced.
function* randomTexts(count: number) {
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < count; i++) {
    const length = 1 + Math.floor(next() * 24);
    let text = "";
    for (let j = 0; j < length; j++) text += alphabet[Math.floor(next() * alphabet.length)];
    yield text;
  }
}

describe("bare URL detection", () => {
  for (const emails of [true, false]) {
    test(`finds exactly what linkify-it finds (${emails ? "with" : "without"} e-mail addresses)`, () => {
      const gated = createBareUrlDetector({ emails });
      const reference = ungated(emails);
      let linked = 0;
      for (const text of [...samples, ...randomTexts(5000)]) {
        const found = reference.test(text);
        if (found) linked++;
        expect({ text, found: gated.test(text) }).toEqual({ text, found });
        expect({ text, matches: gated.match(text) }).toEqual({ text, matches: reference.match(text) });
      }
      // The corpus must exercise both outcomes, or the comparison proves nothing.
      expect(linked).toBeGreaterThan(25);
    });
  }

  test("text without a scheme, an @ or a dot before a letter or digit is skipped", () => {
    expect(mayHoldLink("Hello from **wrk**: a message of ordinary length, with a little markdown in it.")).toBe(false);
    expect(mayHoldLink("Done. Next!")).toBe(false);
    for (const text of ["example.com", "a@b", "//x", "mailto:x", "x.1"]) expect(mayHoldLink(text)).toBe(true);
  });
});
