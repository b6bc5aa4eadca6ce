import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, queryServer, uniqueName } from "../helpers/channels";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";
import { channelMessage, sendOk } from "../helpers/sending";
import { SEED_TIMEOUT_MS } from "../events/support";

/** Linkifiers (spec 2.8, 4.17): administrators manage an ordered list the renderer follows. */

let org: Org;
let refused: Array<[string, Person]>;

beforeAll(async () => {
  org = await seedOrg();
  refused = [
    ["moderator", org.moderator],
    ["member", org.member],
    ["guest", org.guest],
    ["bot", org.bot],
  ];
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

interface Linkifier {
  id: number;
  pattern: string;
  url_template: string;
}

let counter = 0;
/** A pattern no other test uses: `<prefix>-<digits>` linking to a per-test URL. */
function fresh(): { pattern: string; url_template: string; prefix: string } {
  const prefix = `LK${++counter}x`;
  return { prefix, pattern: `${prefix}-(?P<id>[0-9]+)`, url_template: `https://tracker.example.com/${prefix}/{id}` };
}

async function list(person: Person = org.member): Promise<Linkifier[]> {
  return ok(await person.api.get("/realm/linkifiers")).linkifiers;
}

async function create(definition: { pattern: string; url_template: string } = fresh(), person: Person = org.admin): Promise<number> {
  return ok(await person.api.post("/realm/filters", definition)).id;
}

const storedCount = () => queryServer<{ n: number }>(org.server, "SELECT count(*) AS n FROM linkifiers")[0].n;

describe("POST /realm/filters", () => {
  test("an administrator adds a linkifier; it is listed last, with its ID", async () => {
    const definition = fresh();
    const body = ok(await org.admin.api.post("/realm/filters", { pattern: definition.pattern, url_template: definition.url_template }));
    expect(body).toEqual({ result: "success", msg: "", id: expect.any(Number) });
    const linkifiers = await list();
    expect(linkifiers.at(-1)).toEqual({ id: body.id, pattern: definition.pattern, url_template: definition.url_template });
  });

  test("the owner may add one too", async () => {
    const id = await create(fresh(), org.owner);
    expect((await list()).map((each) => each.id)).toContain(id);
  });

  test.each(["moderator", "member", "guest", "bot"])("a %s is refused and nothing is stored", async (role) => {
    const person = refused.find(([name]) => name === role)![1];
    const before = storedCount();
    expectError(await person.api.post("/realm/filters", fresh()), "UNAUTHORIZED_PRINCIPAL");
    expect(storedCount()).toBe(before);
  });

  test.each([
    ["an invalid regular expression", { pattern: "abc(", url_template: "https://example.com/{x}" }, /regular expression/i],
    ["an empty pattern", { pattern: "", url_template: "https://example.com/" }, /empty/i],
    ["an invalid URL template", { pattern: "#(?P<id>[0-9]+)", url_template: "https://example.com/{id" }, /template/i],
    ["a template group missing from the pattern", { pattern: "#(?P<id>[0-9]+)", url_template: "https://example.com/{other}" }, /other/],
    ["a pattern group missing from the template", { pattern: "#(?P<id>[0-9]+)", url_template: "https://example.com/" }, /id/],
    ["a template that is not a web URL", { pattern: "#(?P<id>[0-9]+)", url_template: "javascript:alert({id})" }, /http/],
  ])("%s is a BAD_REQUEST saying why, and nothing is stored", async (_name, definition, reason) => {
    const before = storedCount();
    const response = await org.admin.api.post("/realm/filters", definition);
    expectError(response, "BAD_REQUEST");
    expect(response.body.msg).toMatch(reason);
    expect(storedCount()).toBe(before);
  });

  test("a pattern that would backtrack catastrophically is accepted and cannot stall rendering", async () => {
    const id = await create({ pattern: "(?P<x>(a+)+)b", url_template: "https://example.com/{x}" });
    const channel = await createChannel(org, org.member);
    const started = performance.now();
    await sendOk(org.member, channelMessage(channel, "hostile", `${"a".repeat(5000)}!`));
    expect(performance.now() - started).toBeLessThan(5000);
    ok(await org.admin.api.delete(`/realm/filters/${id}`));
  });

  test("the same pattern twice is refused", async () => {
    const definition = fresh();
    await create(definition);
    const before = storedCount();
    expectError(await org.admin.api.post("/realm/filters", { ...definition, url_template: "https://other.example.com/{id}" }), "BAD_REQUEST");
    expect(storedCount()).toBe(before);
  });

  test("missing parameters and huge strings are 400s", async () => {
    expectError(await org.admin.api.post("/realm/filters", { pattern: "#(?P<id>[0-9]+)" }), "BAD_REQUEST");
    expectError(await org.admin.api.post("/realm/filters", { url_template: "https://example.com/{id}" }), "BAD_REQUEST");
    expectError(await org.admin.api.post("/realm/filters", { pattern: "x".repeat(100_000), url_template: "https://example.com/" }), "BAD_REQUEST");
  });
});

describe("PATCH /realm/filters/{filter_id}", () => {
  test("an administrator replaces pattern and template; the linkifier keeps its place", async () => {
    const id = await create();
    const order = (await list()).map((each) => each.id);
    const replacement = fresh();
    ok(await org.admin.api.patch(`/realm/filters/${id}`, { pattern: replacement.pattern, url_template: replacement.url_template }));
    const after = await list();
    expect(after.map((each) => each.id)).toEqual(order);
    expect(after.find((each) => each.id === id)).toEqual({ id, pattern: replacement.pattern, url_template: replacement.url_template });
  });

  test("keeping its own pattern is not a duplicate; taking another's is", async () => {
    const first = fresh();
    const id = await create(first);
    ok(await org.admin.api.patch(`/realm/filters/${id}`, { pattern: first.pattern, url_template: "https://elsewhere.example.com/{id}" }));
    const other = fresh();
    await create(other);
    expectError(await org.admin.api.patch(`/realm/filters/${id}`, other), "BAD_REQUEST");
    expect((await list()).find((each) => each.id === id)!.pattern).toBe(first.pattern);
  });

  test("an unknown ID, an invalid definition and missing parameters are BAD_REQUEST, changing nothing", async () => {
    const definition = fresh();
    const id = await create(definition);
    const before = await list();
    expectError(await org.admin.api.patch("/realm/filters/999999", fresh()), "BAD_REQUEST");
    expectError(await org.admin.api.patch(`/realm/filters/${id}`, { pattern: "a(", url_template: "https://example.com/" }), "BAD_REQUEST");
    expectError(await org.admin.api.patch(`/realm/filters/${id}`, { pattern: definition.pattern }), "BAD_REQUEST");
    expectError(await org.admin.api.patch("/realm/filters/abc", fresh()), "BAD_REQUEST");
    expect(await list()).toEqual(before);
  });

  test("every role below administrator is refused", async () => {
    const definition = fresh();
    const id = await create(definition);
    for (const [, person] of refused) expectError(await person.api.patch(`/realm/filters/${id}`, fresh()), "UNAUTHORIZED_PRINCIPAL");
    expect((await list()).find((each) => each.id === id)!.pattern).toBe(definition.pattern);
  });
});

describe("DELETE /realm/filters/{filter_id}", () => {
  test("an administrator removes a linkifier", async () => {
    const id = await create();
    ok(await org.admin.api.delete(`/realm/filters/${id}`));
    expect((await list()).map((each) => each.id)).not.toContain(id);
  });

  test("an unknown or already removed ID is a BAD_REQUEST", async () => {
    const id = await create();
    ok(await org.admin.api.delete(`/realm/filters/${id}`));
    expectError(await org.admin.api.delete(`/realm/filters/${id}`), "BAD_REQUEST");
    expectError(await org.admin.api.delete("/realm/filters/999999"), "BAD_REQUEST");
  });

  test("every role below administrator is refused", async () => {
    const id = await create();
    for (const [, person] of refused) expectError(await person.api.delete(`/realm/filters/${id}`), "UNAUTHORIZED_PRINCIPAL");
    expect((await list()).map((each) => each.id)).toContain(id);
  });
});

describe("GET and PATCH /realm/linkifiers", () => {
  test("everyone, guests and bots included, may list the linkifiers", async () => {
    const expected = await list(org.admin);
    for (const [, person] of refused) expect(await list(person)).toEqual(expected);
  });

  test("reordering takes every ID once, and the list follows the new order", async () => {
    await create();
    await create();
    const ids = (await list()).map((each) => each.id);
    const reversed = [...ids].reverse();
    expect(ok(await org.admin.api.patch("/realm/linkifiers", { ordered_linkifier_ids: reversed }))).toEqual({ result: "success", msg: "" });
    expect((await list()).map((each) => each.id)).toEqual(reversed);
    ok(await org.admin.api.patch("/realm/linkifiers", { ordered_linkifier_ids: ids }));
    expect((await list()).map((each) => each.id)).toEqual(ids);
  });

  test("a list that is not a permutation of every ID is a BAD_REQUEST, changing nothing", async () => {
    await create();
    const ids = (await list()).map((each) => each.id);
    for (const wrong of [ids.slice(1), [...ids, ids[0]], [...ids.slice(1), 999999], [...ids, 999999], []]) {
      expectError(await org.admin.api.patch("/realm/linkifiers", { ordered_linkifier_ids: wrong }), "BAD_REQUEST");
    }
    expectError(await org.admin.api.patch("/realm/linkifiers", { ordered_linkifier_ids: "[1, 2" }), "BAD_REQUEST");
    expectError(await org.admin.api.patch("/realm/linkifiers", { ordered_linkifier_ids: '["a"]' }), "BAD_REQUEST");
    expectError(await org.admin.api.patch("/realm/linkifiers", {}), "BAD_REQUEST");
    expect((await list()).map((each) => each.id)).toEqual(ids);
  });

  test("every role below administrator is refused", async () => {
    const ids = (await list()).map((each) => each.id);
    for (const [, person] of refused) {
      expectError(await person.api.patch("/realm/linkifiers", { ordered_linkifier_ids: [...ids].reverse() }), "UNAUTHORIZED_PRINCIPAL");
    }
    expect((await list()).map((each) => each.id)).toEqual(ids);
  });
});

describe("rendering with the organization's linkifiers", () => {
  async function fetchMessage(id: number) {
    return ok(await org.member.api.get(`/messages/${id}`, { apply_markdown: true })).message;
  }

  test("a message sent after a linkifier is created links its matches in content and topic", async () => {
    const { prefix, ...definition } = fresh();
    const channel = await createChannel(org, org.member);
    const before = await sendOk(org.member, channelMessage(channel, `about ${prefix}-7`, `see ${prefix}-42`));
    await create(definition);
    const { id } = await sendOk(org.member, channelMessage(channel, `about ${prefix}-7`, `see ${prefix}-42.`));
    const message = await fetchMessage(id);
    expect(message.content).toContain(`<a href="https://tracker.example.com/${prefix}/42"`);
    expect(message.content).toContain(`>${prefix}-42</a>`);
    expect(message.topic_links).toEqual([{ text: `${prefix}-7`, url: `https://tracker.example.com/${prefix}/7` }]);
    // Rendered content is fixed when sent; topic_links follow the current linkifiers.
    const earlier = await fetchMessage(before.id);
    expect(earlier.content).not.toContain("tracker.example.com");
    expect(earlier.topic_links).toEqual([{ text: `${prefix}-7`, url: `https://tracker.example.com/${prefix}/7` }]);
  });

  test("overlapping linkifiers apply in the list's order", async () => {
    const tag = `OV${++counter}`;
    const narrow = await create({ pattern: `${tag}-(?P<id>[0-9]+)`, url_template: "https://narrow.example.com/{id}" });
    const wide = await create({ pattern: `(?P<word>${tag})-[0-9]+`, url_template: "https://wide.example.com/{word}" });
    const channel = await createChannel(org, org.member, {}, uniqueName("order"));
    const first = await fetchMessage((await sendOk(org.member, channelMessage(channel, `t ${tag}-5`, `x ${tag}-5`))).id);
    expect(first.content).toContain('href="https://narrow.example.com/5"');
    expect(first.topic_links).toEqual([{ text: `${tag}-5`, url: "https://narrow.example.com/5" }]);

    const ids = (await list()).map((each) => each.id);
    const reordered = [wide, ...ids.filter((id) => id !== wide)];
    ok(await org.admin.api.patch("/realm/linkifiers", { ordered_linkifier_ids: reordered }));
    const second = await fetchMessage((await sendOk(org.member, channelMessage(channel, `t ${tag}-5`, `x ${tag}-5`))).id);
    expect(second.content).toContain(`href="https://wide.example.com/${tag}"`);
    expect(second.topic_links).toEqual([{ text: `${tag}-5`, url: `https://wide.example.com/${tag}` }]);
    expect(narrow).not.toBe(wide);
  });

  test("after a linkifier is deleted, topics no longer link through it", async () => {
    const { prefix, ...definition } = fresh();
    const id = await create(definition);
    const channel = await createChannel(org, org.member);
    const sent = await sendOk(org.member, channelMessage(channel, `on ${prefix}-3`, "text"));
    expect((await fetchMessage(sent.id)).topic_links).toHaveLength(1);
    ok(await org.admin.api.delete(`/realm/filters/${id}`));
    expect((await fetchMessage(sent.id)).topic_links).toEqual([]);
  });
});
