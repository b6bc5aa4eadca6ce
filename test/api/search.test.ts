import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, uniqueName } from "../helpers/channels";
import { editServerDatabase } from "../helpers/inProcess";
import { expectError, ok, type Org, type Person, seedOrg } from "../helpers/seed";
import { channelMessage, directMessage, sendOk } from "../helpers/sending";

/** Full-text search narrows: matching, highlighting, hostile input, access, keeping the index in step. */

let org: Org;
let channel: string;
let secret: string;
const m: Record<string, number> = {};

const HL = (word: string) => `<span class="highlight">${word}</span>`;

async function search(person: Person, operand: string, narrow: unknown[] = []) {
  return ok(await person.api.get("/messages", { anchor: "newest", num_before: 100, num_after: 0, narrow: [...narrow, { operator: "search", operand }] }));
}
const idsOf = (body: Record<string, any>): number[] => body.messages.map((message: { id: number }) => message.id);

beforeAll(async () => {
  org = await seedOrg();
  channel = uniqueName("searchable");
  secret = uniqueName("hidden");
  await createChannel(org, org.member, { principals: [org.member.id, org.member2.id] }, channel);
  await createChannel(org, org.member, { invite_only: true }, secret);
  m.deploy = (await sendOk(org.member, channelMessage(channel, "Release plans", "We deployed the **new** build to production"))).id;
  m.link = (await sendOk(org.member, channelMessage(channel, "links", "see https://example.com/deploy for details"))).id;
  m.topic = (await sendOk(org.member, channelMessage(channel, "Deploy checklist", "nothing else here"))).id;
  m.amp = (await sendOk(org.member, channelMessage(channel, "misc", "fish & chips, amp up"))).id;
  m.cafe = (await sendOk(org.member, channelMessage(channel, "misc", "Meet at the Café"))).id;
  m.phrase = (await sendOk(org.member, channelMessage(channel, "misc", "the coffee machine is broken; machine coffee is not"))).id;
  m.secret = (await sendOk(org.member, channelMessage(secret, "t", "deploy secrets"))).id;
  m.dm = (await sendOk(org.member, directMessage([org.member2.id], "private deploy notes"))).id;
}, 60_000);
afterAll(() => org.server.dispose());

describe("matching", () => {
  test("finds words in content and topic, by prefix, case-insensitively", async () => {
    const body = await search(org.member2, "DEPLOY");
    expect(idsOf(body).sort()).toEqual([m.deploy, m.link, m.topic, m.dm].sort());
  });

  test("every word must match", async () => {
    expect(idsOf(await search(org.member2, "deployed production"))).toEqual([m.deploy]);
    expect(idsOf(await search(org.member2, "deployed nowhere"))).toEqual([]);
  });

  test("quoted phrases match words in order", async () => {
    expect(idsOf(await search(org.member2, '"coffee machine"'))).toEqual([m.phrase]);
    expect(idsOf(await search(org.member2, '"machine is coffee"'))).toEqual([]);
  });

  test("accents do not matter", async () => {
    expect(idsOf(await search(org.member2, "cafe"))).toEqual([m.cafe]);
  });

  test("combines with other terms, and can be negated", async () => {
    expect(idsOf(await search(org.member2, "deploy", [{ operator: "channel", operand: channel }, { operator: "topic", operand: "links" }]))).toEqual([m.link]);
    const negated = ok(
      await org.member2.api.get("/messages", { anchor: "newest", num_before: 100, num_after: 0, narrow: [{ operator: "channel", operand: channel }, { operator: "search", operand: "deploy", negated: true }] }),
    );
    expect(idsOf(negated)).toContain(m.amp);
    expect(idsOf(negated)).not.toContain(m.deploy);
    expect(negated.messages[0]).not.toHaveProperty("match_content");
  });

  test("within one conversation", async () => {
    expect(idsOf(await search(org.member2, "deploy", [{ operator: "dm", operand: [org.member.id] }]))).toEqual([m.dm]);
    expect(idsOf(await search(org.member, "deploy", [{ operator: "channel", operand: secret }]))).toEqual([m.secret]);
  });

  test("the index's internal conversation tokens are not searchable", async () => {
    const recipient = ok(await org.member2.api.get(`/messages/${m.deploy}`)).message.recipient_id;
    expect(idsOf(await search(org.member2, `r${recipient}`))).toEqual([]);
    expect(idsOf(await search(org.member2, `scope:r${recipient}`))).toEqual([]);
  });

  test("finds only what the user may read", async () => {
    expect(idsOf(await search(org.member2, "secrets"))).toEqual([]);
    expect(idsOf(await search(org.member, "secrets"))).toEqual([m.secret]);
    expect(idsOf(await search(org.moderator, "deploy"))).toEqual([]);
    expect(idsOf(await search(org.moderator, "deploy", [{ operator: "channels", operand: "public" }])).sort()).toEqual([m.deploy, m.link, m.topic].sort());
    expect(idsOf(await search(org.guest, "deploy"))).toEqual([]);
  });
});

describe("hostile input", () => {
  for (const operand of ['"', 'AND(', "NEAR(deploy build)", "deploy*", "a OR b", "content:deploy", "-deploy", "'; DROP TABLE messages; --", '"unclosed deploy', "(((", "\\", "x".repeat(5000)]) {
    test(`${JSON.stringify(operand.slice(0, 30))} is searched as text`, async () => {
      const response = await org.member2.api.get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "search", operand }] });
      expect(response.status).toBe(200);
      expect(response.body.result).toBe("success");
    });
  }

  test("operators in the operand are words, not syntax", async () => {
    expect(idsOf(await search(org.member2, "deploy OR nothing"))).toEqual([]);
    // As FTS5 syntax this would be a column filter finding the message; as text, "content" is missing.
    expect(idsOf(await search(org.member2, "content:deployed"))).toEqual([]);
    expect(idsOf(await search(org.member2, "deployed:production"))).toEqual([m.deploy]);
  });

  test("at most ten words to search for, in all the search terms together", async () => {
    const page = (narrow: unknown[]) => org.member2.api.get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow });
    const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`);
    expect((await page([{ operator: "search", operand: words(10).join(" ") }])).status).toBe(200);
    const refusals = [
      [{ operator: "search", operand: words(11).join(" ") }],
      [{ operator: "search", operand: `"${words(6).join(" ")}"` }, { operator: "search", operand: words(5).join(" "), negated: true }],
      words(11).map((word) => ({ operator: "search", operand: word, negated: true })),
    ];
    for (const narrow of refusals) {
      const response = await page(narrow);
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe("Too many words to search for (at most 10)");
    }
  });

  test("an empty search operand is refused", async () => {
    expectError(await org.member2.api.get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: [{ operator: "search", operand: "" }] }), "BAD_REQUEST");
  });
});

describe("highlighting", () => {
  test("match_content and match_subject wrap the matches", async () => {
    const body = await search(org.member2, "deploy", [{ operator: "channel", operand: channel }]);
    const byId = new Map(body.messages.map((message: Record<string, string> & { id: number }) => [message.id, message]));
    expect(byId.get(m.deploy)).toMatchObject({
      match_content: `<p>We ${HL("deployed")} the <strong>new</strong> build to production</p>`,
      match_subject: "Release plans",
    });
    expect(byId.get(m.topic)).toMatchObject({ match_subject: `${HL("Deploy")} checklist`, match_content: "<p>nothing else here</p>" });
  });

  test("never inside tags or attributes", async () => {
    const [message] = (await search(org.member2, "deploy", [{ operator: "topic", operand: "links" }])).messages;
    expect(message.match_content).toContain('href="https://example.com/deploy"');
    expect(message.match_content).toContain(`https://example.com/${HL("deploy")}</a>`);
    expect(message.match_content.match(/<span class="highlight">/g)).toHaveLength(1);
  });

  test("character references stay whole", async () => {
    const [message] = (await search(org.member2, "amp")).messages;
    expect(message.match_content).toBe(`<p>fish &amp; chips, ${HL("amp")} up</p>`);
  });

  test("the plain content is unchanged", async () => {
    const [message] = (await search(org.member2, "amp")).messages;
    expect(message.content).toBe("<p>fish &amp; chips, amp up</p>");
  });
});

describe("GET /messages/matches_narrow (spec 4.6)", () => {
  test("returns only the matching messages, keyed by ID, highlighted for a search", async () => {
    const body = ok(await org.member2.api.get("/messages/matches_narrow", { msg_ids: [m.deploy, m.amp, m.cafe], narrow: [{ operator: "search", operand: "deployed" }] }));
    expect(body.messages).toEqual({ [m.deploy]: { match_content: `<p>We ${HL("deployed")} the <strong>new</strong> build to production</p>`, match_subject: "Release plans" } });
  });

  test("without a search the fields are the plain HTML and escaped topic", async () => {
    const id = (await sendOk(org.member, channelMessage(channel, "<b>tags</b> & more", "plain"))).id;
    const body = ok(await org.member2.api.get("/messages/matches_narrow", { msg_ids: [id, m.deploy], narrow: [{ operator: "topic", operand: "<b>tags</b> & more" }] }));
    expect(body.messages).toEqual({ [id]: { match_content: "<p>plain</p>", match_subject: "&lt;b&gt;tags&lt;/b&gt; &amp; more" } });
  });

  test("legacy pairs work, and messages the user did not receive never match", async () => {
    const body = ok(await org.moderator.api.get("/messages/matches_narrow", { msg_ids: [m.deploy, m.dm], narrow: [["search", "deploy"]] }));
    expect(body.messages).toEqual({});
    const own = ok(await org.member2.api.get("/messages/matches_narrow", { msg_ids: [m.dm], narrow: [["is", "dm"]] }));
    expect(Object.keys(own.messages)).toEqual([String(m.dm)]);
  });

  test("both parameters are required and must be valid", async () => {
    expectError(await org.member2.api.get("/messages/matches_narrow", { narrow: [] }), "BAD_REQUEST");
    expectError(await org.member2.api.get("/messages/matches_narrow", { msg_ids: [1] }), "BAD_REQUEST");
    expectError(await org.member2.api.get("/messages/matches_narrow", { msg_ids: "[1", narrow: [] }), "BAD_REQUEST");
    expectError(await org.member2.api.get("/messages/matches_narrow", { msg_ids: [1], narrow: [["bogus", "x"]] }), "BAD_REQUEST");
  });
});

describe("the index follows the messages table", () => {
  test("edits, topic changes and deletions, whoever makes them", async () => {
    const id = (await sendOk(org.member, channelMessage(channel, "index", "original wording"))).id;
    expect(idsOf(await search(org.member2, "original"))).toEqual([id]);
    editServerDatabase(org.server, "UPDATE messages SET content = 'revised wording' WHERE id = ?", id);
    expect(idsOf(await search(org.member2, "original"))).toEqual([]);
    expect(idsOf(await search(org.member2, "revised"))).toEqual([id]);
    editServerDatabase(org.server, "UPDATE messages SET topic = 'renamed topic' WHERE id = ?", id);
    expect(idsOf(await search(org.member2, "renamed"))).toEqual([id]);
    editServerDatabase(org.server, "DELETE FROM messages WHERE id = ?", id);
    expect(idsOf(await search(org.member2, "revised"))).toEqual([]);
  });
});
