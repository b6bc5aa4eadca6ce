import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, uniqueName } from "../helpers/channels";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";
import { channelMessage, messageCount, sendOk } from "../helpers/sending";
import { SEED_TIMEOUT_MS, pending, register } from "../events/support";

/** POST /messages/render (reference: render-message): the caller's content as a send would render it. */

let org: Org;
let publicName: string;
let secretName: string;
beforeAll(async () => {
  org = await seedOrg();
  publicName = uniqueName("render");
  secretName = uniqueName("hidden");
  await createChannel(org, org.member, {}, publicName);
  await createChannel(org, org.admin, { invite_only: true }, secretName);
  ok(await org.admin.api.post("/realm/filters", { pattern: "RND-(?P<id>[0-9]+)", url_template: "https://tracker.example.com/RND/{id}" }));
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const render = (person: Person, content: unknown) => person.api.post("/messages/render", { content });

/** What a send of the same content stores as its rendering. */
async function renderedBySending(person: Person, content: string): Promise<string> {
  const id = (await sendOk(person, channelMessage(publicName, "render check", content))).id;
  return ok(await person.api.get(`/messages/${id}`, { apply_markdown: true })).message.content;
}

describe("rendering", () => {
  test("the reference's example", async () => {
    expect(ok(await render(org.member, "**foo**"))).toEqual({ result: "success", msg: "", rendered: "<p><strong>foo</strong></p>" });
  });

  test.each([
    ["a mention", "hi @**Max Member**, and @_**Mel Member**"],
    ["a channel link", `see #**${"PUBLIC"}**`],
    ["emoji", ":octopus: and :+1: and 🐙"],
    ["a linkifier", "fixed in RND-42"],
    ["code, quotes and lists", "```py\nprint(1)\n```\n> quoted\n\n* one\n* two"],
    ["a /me message", "/me waves"],
  ])("%s renders exactly as a send renders it", async (_label, template) => {
    const content = template.replace("PUBLIC", publicName);
    const rendered = ok(await render(org.member, content)).rendered;
    expect(rendered).toBe(await renderedBySending(org.member, content));
  });

  test("mentions and links resolve: a user, a channel, a linkifier", async () => {
    const rendered = ok(await render(org.member, `@**Max Member** #**${publicName}** RND-7`)).rendered;
    expect(rendered).toContain(`data-user-id="${org.member2.id}"`);
    expect(rendered).toContain("https://tracker.example.com/RND/7");
    expect(rendered).toContain(`#${publicName}`);
    expect(rendered).toContain('class="stream"');
  });

  test("a private channel the caller cannot see is not linked, as when sending", async () => {
    const content = `#**${secretName}**`;
    const forMember = ok(await render(org.member, content)).rendered;
    expect(forMember).not.toContain('class="stream"');
    expect(forMember).toBe(await renderedBySending(org.member, content));
    expect(ok(await render(org.admin, content)).rendered).toContain('class="stream"');
  });

  test("every role may render, guests and bots included", async () => {
    for (const person of [org.owner, org.admin, org.moderator, org.member, org.guest, org.bot]) {
      expect(ok(await render(person, "*hi*")).rendered).toBe("<p><em>hi</em></p>");
    }
  });

  test("blank content renders as nothing", async () => {
    for (const content of ["", "   ", "\n\n"]) expect(ok(await render(org.member, content)).rendered).toBe("");
  });

  test("nothing is stored or sent: no message, no event, nobody mentioned is told", async () => {
    const state = await register(org.member2, { event_types: ["message"] });
    const before = messageCount(org.server);
    ok(await render(org.member, "@**Max Member** look"));
    expect(messageCount(org.server)).toBe(before);
    const events = await pending(org.member2, state.queue_id);
    expect(events.filter((event) => event.type === "message")).toEqual([]);
  });
});

describe("bad requests", () => {
  test("content longer than a message may be is refused as a send is", async () => {
    const refused = await render(org.member, "x".repeat(10_001));
    expectError(refused, "BAD_REQUEST");
    expect(refused.body.msg).toBe("Message too long (limit: 10000 characters).");
    // Counted in characters: 10,000 of a character outside the BMP (20,000 UTF-16 units) are within it.
    const rendered: string = ok(await render(org.member, "𝔸".repeat(10_000))).rendered;
    expect(rendered === `<p>${"𝔸".repeat(10_000)}</p>`).toBe(true);
  });

  test("null bytes are refused", async () => {
    const refused = await render(org.member, "a\u0000b");
    expectError(refused, "BAD_REQUEST");
    expect(refused.body.msg).toBe("Message must not contain null bytes");
  });

  test("missing content is refused, naming it", async () => {
    const refused = await org.member.api.post("/messages/render", {});
    expectError(refused, "BAD_REQUEST");
    expect(refused.body.msg).toContain("content");
  });

  test("absurdly long content is refused before rendering", async () => {
    const refused = await render(org.member, "y".repeat(200_000));
    expectError(refused, "BAD_REQUEST");
  });

  test("without credentials the request is refused", async () => {
    const refused = await org.anon.post("/messages/render", { content: "hi" });
    expect(refused.status).toBe(401);
    expect(refused.body.result).toBe("error");
  });
});
