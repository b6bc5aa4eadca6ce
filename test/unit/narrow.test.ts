import { describe, expect, test } from "bun:test";
import { ApiError } from "../../src/http/errors";
import { parseNarrow, parseNarrowParameter, searchTerms } from "../../src/messages/narrow";

/** The error a parse throws, so its code and message can be checked. */
function parseError(raw: string): ApiError {
  try {
    parseNarrowParameter(raw);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error(`expected ${raw} to be refused`);
}

describe("narrow parsing", () => {
  test("an absent narrow and an empty list are the empty narrow", () => {
    expect(parseNarrowParameter(undefined)).toEqual([]);
    expect(parseNarrowParameter("[]")).toEqual([]);
  });

  test("legacy pairs and objects give the same terms", () => {
    const legacy = parseNarrowParameter(JSON.stringify([["stream", "Denmark"], ["topic", "lunch"]]));
    const modern = parseNarrowParameter(JSON.stringify([{ operator: "channel", operand: "Denmark" }, { operator: "topic", operand: "lunch", negated: false }]));
    expect(legacy).toEqual(modern);
    expect(legacy).toEqual([
      { operator: "channel", operand: "Denmark", negated: false },
      { operator: "topic", operand: "lunch", negated: false },
    ]);
  });

  test("old operator names map to the current ones", () => {
    const terms = parseNarrow([
      ["stream", "a"],
      ["streams", "public"],
      ["subject", "t"],
      ["pm-with", "x@example.com"],
      ["group-pm-with", "y@example.com"],
    ]);
    expect(terms.map((term) => term.operator)).toEqual(["channel", "channels", "topic", "dm", "dm-including"]);
  });

  test("negated is kept from the object form", () => {
    expect(parseNarrow([{ operator: "is", operand: "starred", negated: true }])).toEqual([{ operator: "is", operand: "starred", negated: true }]);
  });

  test("channel operands are names or IDs", () => {
    expect(parseNarrow([{ operator: "channel", operand: 7 }])[0].operand).toBe(7);
    expect(parseNarrow([["channel", "7"]])[0].operand).toBe("7");
  });

  test("dm operands: ID lists, comma-separated addresses or IDs, one ID", () => {
    expect(parseNarrow([{ operator: "dm", operand: [3, 4] }])[0].operand).toEqual([3, 4]);
    expect(parseNarrow([["dm", "a@example.com, b@example.com"]])[0].operand).toEqual(["a@example.com", "b@example.com"]);
    expect(parseNarrow([["dm", "3,4"]])[0].operand).toEqual([3, 4]);
    expect(parseNarrow([{ operator: "dm", operand: 9 }])[0].operand).toEqual([9]);
  });

  test("sender and dm-including take an ID or an address", () => {
    expect(parseNarrow([{ operator: "sender", operand: 5 }])[0].operand).toBe(5);
    expect(parseNarrow([["sender", "5"]])[0].operand).toBe(5);
    expect(parseNarrow([["dm-including", "a@example.com"]])[0].operand).toBe("a@example.com");
  });

  test("id, near and with take message IDs as numbers or digit strings", () => {
    expect(parseNarrow([["id", "12"], { operator: "near", operand: 13 }, ["with", "14"]]).map((term) => term.operand)).toEqual([12, 13, 14]);
  });

  test("is:private is is:dm", () => {
    expect(parseNarrow([["is", "private"]])[0]).toEqual({ operator: "is", operand: "dm", negated: false });
  });

  test("searchTerms lists only positive search terms", () => {
    const terms = parseNarrow([["search", "foo"], { operator: "search", operand: "bar", negated: true }, ["topic", "x"]]);
    expect(searchTerms(terms).map((term) => term.operand)).toEqual(["foo"]);
  });
});

describe("narrow refusals", () => {
  const refusals: Array<[string, unknown, RegExp]> = [
    ["not JSON", "[[", /not valid JSON/],
    ["not a list", { operator: "is" }, /list of terms/],
    ["a pair of three", [["is", "dm", "x"]], /pair of strings/],
    ["a pair with a number", [["id", 5]], /pair of strings/],
    ["no operand", [{ operator: "is" }], /no operand/],
    ["no operator", [{ operand: "dm" }], /no operator/],
    ["an unknown field", [{ operator: "is", operand: "dm", extra: 1 }], /unknown field/],
    ["a non-boolean negated", [{ operator: "is", operand: "dm", negated: "yes" }], /negated/],
    ["an unknown operator", [["frobnicate", "x"]], /^Invalid narrow operator: unknown operator frobnicate$/],
    ["an unknown is operand", [["is", "sparkly"]], /unknown 'is' operand sparkly/],
    ["an unknown has operand", [["has", "cats"]], /unknown 'has' operand cats/],
    ["an unknown channels operand", [["channels", "secret"]], /unknown 'channels' operand/],
    ["a non-numeric id", [["id", "abc"]], /invalid message ID/],
    ["a negative id", [{ operator: "id", operand: -3 }], /invalid message ID/],
    ["an empty search", [["search", "  "]], /non-empty string/],
    ["a topic that is not a string", [{ operator: "topic", operand: 5 }], /must be a string/],
    ["an empty dm list", [{ operator: "dm", operand: [] }], /list of user IDs/],
    ["a dm list with strings", [{ operator: "dm", operand: ["a@example.com"] }], /list of user IDs/],
    ["a channel operand that is a list", [{ operator: "channel", operand: [1] }], /channel name or ID/],
    ["a sender that is an object", [{ operator: "sender", operand: {} }], /user ID or e-mail/],
    ["a term that is a number", [5], /object or a pair/],
  ];
  for (const [name, value, message] of refusals) {
    test(`${name} is a BAD_REQUEST`, () => {
      const error = parseError(typeof value === "string" ? value : JSON.stringify(value));
      expect(error.code).toBe("BAD_REQUEST");
      expect(error.status).toBe(400);
      expect(error.message).toMatch(message);
    });
  }
});
