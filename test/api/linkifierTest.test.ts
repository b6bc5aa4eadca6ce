import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, ok, seedOrg, type Org } from "../helpers/seed";
import { SEED_TIMEOUT_MS } from "../events/support";

/** POST /realm/filters/test (Parley addition): a linkifier tried on some text before it is saved. */

let org: Org;

beforeAll(async () => {
  org = await seedOrg();
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const ISSUE = { pattern: "#(?P<id>[0-9]+)", url_template: "https://tracker.example.com/issues/{id}" };

describe("POST /realm/filters/test", () => {
  test("the candidate's matches, and the text rendered as a message would be", async () => {
    const body = ok(await org.admin.api.post("/realm/filters/test", { ...ISSUE, text: "Fixes #12 and #7; not abc#9x or `see #3`." }));
    expect(body.matches).toEqual([
      { text: "#12", url: "https://tracker.example.com/issues/12" },
      { text: "#7", url: "https://tracker.example.com/issues/7" },
      { text: "#3", url: "https://tracker.example.com/issues/3" },
    ]);
    expect(body.rendered).toContain('<a href="https://tracker.example.com/issues/12"');
    expect(body.rendered).toContain('<a href="https://tracker.example.com/issues/7"');
    // Code is never linked in a message, though the pattern matches there.
    expect(body.rendered).not.toContain("issues/3");
    expect(body.rendered).toContain("abc#9x");
  });

  test("what an earlier saved linkifier links first stays its link; editing one puts the candidate in its place", async () => {
    const earlier = ok(await org.admin.api.post("/realm/filters", { pattern: "#(?P<id>[0-9]+)", url_template: "https://old.example.com/{id}" })).id;
    const appended = ok(await org.admin.api.post("/realm/filters/test", { ...ISSUE, text: "See #5" }));
    expect(appended.matches).toEqual([{ text: "#5", url: "https://tracker.example.com/issues/5" }]);
    expect(appended.rendered).toContain("https://old.example.com/5");
    const replacing = ok(await org.admin.api.post("/realm/filters/test", { ...ISSUE, text: "See #5", filter_id: earlier }));
    expect(replacing.rendered).toContain("https://tracker.example.com/issues/5");
    expect(replacing.rendered).not.toContain("old.example.com");
    ok(await org.admin.api.delete(`/realm/filters/${earlier}`));
  });

  test("no text: no matches, nothing rendered", async () => {
    expect(ok(await org.owner.api.post("/realm/filters/test", { ...ISSUE, text: "" }))).toEqual({ result: "success", msg: "", matches: [], rendered: "" });
  });

  test.each([
    ["a bad pattern", { pattern: "#(?P<id>[0-9]+", url_template: ISSUE.url_template }, "Bad regular expression"],
    ["an empty pattern", { pattern: "", url_template: ISSUE.url_template }, "Linkifier pattern cannot be empty."],
    ["a template naming a group the pattern lacks", { pattern: "#(?P<id>[0-9]+)", url_template: "https://x.example.com/{num}" }, "Group 'num' in URL template is not present in linkifier pattern."],
    ["a template that is not a web URL", { pattern: "#(?P<id>[0-9]+)", url_template: "javascript:alert({id})" }, "URL template must produce an http or https URL."],
  ])("%s is refused with the reason saving would give", async (_label, definition, msg) => {
    const response = await org.admin.api.post("/realm/filters/test", { ...definition, text: "#1" });
    expectError(response, "BAD_REQUEST");
    expect(response.body.msg).toContain(msg);
    const saving = await org.admin.api.post("/realm/filters", definition);
    expect(saving.body.msg).toBe(response.body.msg);
  });

  test("an unknown filter_id, a missing parameter and a wrong type are refused", async () => {
    expect((await org.admin.api.post("/realm/filters/test", { ...ISSUE, text: "#1", filter_id: 999_999 })).body.msg).toBe("Linkifier not found.");
    expectError(await org.admin.api.post("/realm/filters/test", { ...ISSUE }), "BAD_REQUEST");
    expectError(await org.admin.api.post("/realm/filters/test", { ...ISSUE, text: "#1", filter_id: "first" }), "BAD_REQUEST");
    expectError(await org.admin.api.post("/realm/filters/test", { ...ISSUE, text: "x".repeat(10_001) }), "BAD_REQUEST");
  });

  test.each(["moderator", "member", "guest", "bot"] as const)("a %s is refused", async (role) => {
    expectError(await org[role].api.post("/realm/filters/test", { ...ISSUE, text: "#1" }), "UNAUTHORIZED_PRINCIPAL");
  });
});
