import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, queryServer, setRealmSetting, systemGroupId, uniqueName } from "../helpers/channels";
import { animatedGif, animatedWebp, apng, gif, jpeg, png, webp } from "../helpers/images";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";
import { channelMessage, sendOk } from "../helpers/sending";
import { pendingOf, register, SEED_TIMEOUT_MS } from "../events/support";
import type { ApiRealmEmoji } from "../../src/shapes/realmEmoji";
import { inspectEmojiImage, sniffEmojiImageFormat } from "../../src/model/emojiImages";

/**
 * Custom emoji (the reference's /realm/emoji): uploading as a multipart file, listing,
 * deactivating, who may do each, serving the images without credentials, the realm_emoji
 * register section and event, and custom emoji in messages, reactions and statuses.
 */

let org: Org;
let channelName: string;
beforeAll(async () => {
  org = await seedOrg();
  channelName = uniqueName("emoji");
  await createChannel(org, org.member, { principals: [org.member.id, org.member2.id, org.guest.id] }, channelName);
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

interface Upload {
  bytes: Uint8Array<ArrayBuffer>;
  fileName?: string;
  type?: string;
  /** The multipart field; python-zulip-api names it after the file's path. */
  field?: string;
}

/** POST /realm/emoji/{name} with the files as multipart/form-data, as the clients send them. */
async function upload(person: Person | null, name: string, files: Upload[] = [{ bytes: png() }], extra: Record<string, string> = {}) {
  const form = new FormData();
  for (const [index, file] of files.entries()) {
    form.append(file.field ?? `file-${index}`, new Blob([file.bytes], { type: file.type ?? "image/png" }), file.fileName ?? "emoji.png");
  }
  for (const [key, value] of Object.entries(extra)) form.append(key, value);
  const headers: Record<string, string> = person ? { authorization: `Basic ${Buffer.from(`${person.email}:${person.apiKey}`).toString("base64")}` } : {};
  const response = await fetch(new URL(`/api/v1/realm/emoji/${encodeURIComponent(name)}`, org.server.url), { method: "POST", headers, body: form });
  return { status: response.status, body: (await response.json()) as any };
}

async function emojiList(person: Person = org.member): Promise<Record<string, ApiRealmEmoji>> {
  return ok(await person.api.get("/realm/emoji")).emoji;
}

async function emojiNamed(name: string, includeDeactivated = false): Promise<ApiRealmEmoji> {
  const found = Object.values(await emojiList()).filter((emoji) => emoji.name === name && (includeDeactivated || !emoji.deactivated));
  expect(found.length).toBeGreaterThan(0);
  return found[found.length - 1]!;
}

const storedCount = () => queryServer<{ n: number }>(org.server, "SELECT count(*) AS n FROM realm_emoji")[0]!.n;
const fetchPath = (path: string, init?: RequestInit) => fetch(new URL(path, org.server.url), init);

/** Expects a refusal with this message, and that no emoji was stored. */
async function expectUploadRefused(response: Promise<{ status: number; body: any }>, msg: string, status = 400) {
  const before = storedCount();
  const answer = await response;
  expectError(answer, "BAD_REQUEST", status);
  expect(answer.body.msg).toBe(msg);
  expect(storedCount()).toBe(before);
}

describe("POST /realm/emoji/{emoji_name}", () => {
  test("a member uploads a PNG; the list shows it with the reference's fields", async () => {
    const answer = await upload(org.member, "green_tick");
    expect(answer).toEqual({ status: 200, body: { result: "success", msg: "" } });
    const emoji = await emojiNamed("green_tick");
    expect(emoji).toEqual({
      id: expect.stringMatching(/^\d+$/),
      name: "green_tick",
      source_url: expect.stringMatching(/^\/user_avatars\/1\/emoji\/images\/[0-9a-f]{16}\.png$/),
      still_url: null,
      deactivated: false,
      author_id: org.member.id,
    });
    expect((await emojiList())[emoji.id]).toEqual(emoji);
  });

  test("every accepted format is served without credentials, with its own type, nosniff and a long cache", async () => {
    const cases = [
      { name: "fmt-png", bytes: png(), type: "image/png", ext: "png" },
      { name: "fmt-gif", bytes: gif(), type: "image/gif", ext: "gif" },
      { name: "fmt-jpeg", bytes: jpeg(), type: "image/jpeg", ext: "jpg" },
      { name: "fmt-webp", bytes: webp(), type: "image/webp", ext: "webp" },
    ];
    for (const each of cases) {
      // The declared type is not trusted: the bytes decide.
      ok(await upload(org.member, each.name, [{ bytes: each.bytes, type: "application/octet-stream", fileName: "x.bin" }]));
      const emoji = await emojiNamed(each.name);
      expect(emoji.source_url.endsWith(`.${each.ext}`)).toBe(true);
      expect(emoji.still_url).toBeNull();
      const served = await fetchPath(emoji.source_url);
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe(each.type);
      expect(served.headers.get("x-content-type-options")).toBe("nosniff");
      expect(served.headers.get("cache-control")).toContain("max-age=31536000");
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(each.bytes);
    }
  });

  test("animated GIF, APNG and WebP get a still_url serving their first frame alone", async () => {
    for (const [name, bytes, type] of [
      ["anim-gif", animatedGif(3), "image/gif"],
      ["anim-png", apng(), "image/png"],
      ["anim-webp", animatedWebp(), "image/webp"],
    ] as const) {
      ok(await upload(org.member, name, [{ bytes }]));
      const emoji = await emojiNamed(name);
      expect(emoji.still_url).toBe(emoji.source_url.replace("/emoji/images/", "/emoji/images/still/"));
      const still = await fetchPath(emoji.still_url!);
      expect(still.status).toBe(200);
      expect(still.headers.get("content-type")).toBe(type);
      const stillBytes = new Uint8Array(await still.arrayBuffer());
      const format = sniffEmojiImageFormat(stillBytes)!;
      expect(format).not.toBeNull();
      expect(inspectEmojiImage(stillBytes, format).animated).toBe(false);
      expect(stillBytes.length).toBeLessThan(bytes.length);
      // The animation itself is served as uploaded.
      expect(new Uint8Array(await (await fetchPath(emoji.source_url)).arrayBuffer())).toEqual(bytes);
    }
  });

  test("a file field named after the file's path (python-zulip-api) is taken too; other fields are ignored", async () => {
    ok(await upload(org.member, "from_python", [{ bytes: png(), field: "/home/me/emoji.png" }]));
    const answer = await upload(org.member, "with_extra", [{ bytes: png() }], { note: "hello" });
    expect(answer.status).toBe(200);
    await emojiNamed("with_extra");
  });

  test("names: spaces become underscores, surrounding blanks are dropped, digits and dashes are fine", async () => {
    ok(await upload(org.member, " party parrot "));
    await emojiNamed("party_parrot");
    ok(await upload(org.member, "x-2"));
    await emojiNamed("x-2");
  });

  test.each([
    ["upper case", "Shout", "Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores."],
    ["punctuation", "semi;colon", "Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores."],
    ["non-English letters", "café", "Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores."],
    ["a colon", "a:b", "Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores."],
    ["a trailing underscore", "ends_", "Emoji names must end with either a letter or digit."],
    ["a trailing dash", "ends-", "Emoji names must end with either a letter or digit."],
    ["only blanks", "   ", "Emoji name is missing"],
    ["a huge name", "a".repeat(101), "Emoji name is too long (limit: 100 characters)"],
  ])("a name with %s is refused", async (_what, name, msg) => {
    await expectUploadRefused(upload(org.member, name), msg);
  });

  test("a name longer than any URL part allows is a 400 naming the parameter", async () => {
    const before = storedCount();
    const answer = await upload(org.member, "b".repeat(5000));
    expectError(answer, "BAD_REQUEST");
    expect(storedCount()).toBe(before);
  });

  test("no file, two files: You must upload exactly one file.", async () => {
    await expectUploadRefused(upload(org.member, "nofile", []), "You must upload exactly one file.");
    await expectUploadRefused(upload(org.member, "twofiles", [{ bytes: png() }, { bytes: gif() }]), "You must upload exactly one file.");
    // A form-encoded body has no files at all.
    const before = storedCount();
    const form = await org.member.api.post("/realm/emoji/formencoded", { filename: "not a file" });
    expectError(form, "BAD_REQUEST");
    expect(form.body.msg).toBe("You must upload exactly one file.");
    expect(storedCount()).toBe(before);
  });

  test("files that are not PNG, GIF, JPEG or WebP are refused whatever they claim to be", async () => {
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const html = new TextEncoder().encode("<html><script>alert(1)</script></html>");
    await expectUploadRefused(upload(org.member, "svg", [{ bytes: svg, type: "image/svg+xml", fileName: "a.svg" }]), "Invalid image format");
    await expectUploadRefused(upload(org.member, "html", [{ bytes: html, type: "image/png" }]), "Invalid image format");
    await expectUploadRefused(upload(org.member, "empty", [{ bytes: new Uint8Array() }]), "Invalid image format");
  });

  test("a file that starts like an image but is broken is refused as undecodable", async () => {
    const msg = "Could not decode image; did you upload an image file?";
    await expectUploadRefused(upload(org.member, "cutpng", [{ bytes: png().slice(0, 20) }]), msg);
    await expectUploadRefused(upload(org.member, "cutgif", [{ bytes: animatedGif().slice(0, 30) }]), msg);
    await expectUploadRefused(upload(org.member, "cutwebp", [{ bytes: animatedWebp().slice(0, 40) }]), msg);
  });

  test("a file over 5 MiB is refused with the reference's message; exactly 5 MiB is accepted", async () => {
    const limit = 5 * 1024 * 1024;
    const padded = (size: number) => {
      const bytes = new Uint8Array(size);
      bytes.set(jpeg());
      return bytes;
    };
    await expectUploadRefused(upload(org.member, "too_big", [{ bytes: padded(limit + 1) }]), "Uploaded file is larger than the allowed limit of 5 MiB");
    ok(await upload(org.member, "just_fits", [{ bytes: padded(limit) }]));
  });

  test("a body far over any upload limit is refused before it is read", async () => {
    const before = storedCount();
    const answer = await upload(org.member, "enormous", [{ bytes: new Uint8Array(26 * 1024 * 1024) }]);
    expectError(answer, "BAD_REQUEST", 413);
    expect(answer.body.msg).toStartWith("Request body too large");
    expect(storedCount()).toBe(before);
  });

  test("an active name cannot be taken twice; after deactivation it can, as a new emoji", async () => {
    ok(await upload(org.member, "twice"));
    const first = await emojiNamed("twice");
    await expectUploadRefused(upload(org.member2, "twice"), "A custom emoji with this name already exists.");
    ok(await org.member.api.delete("/realm/emoji/twice"));
    ok(await upload(org.member2, "twice", [{ bytes: gif() }]));
    const second = await emojiNamed("twice");
    expect(second.id).not.toBe(first.id);
    const list = await emojiList();
    expect(list[first.id]!.deactivated).toBe(true);
    expect(list[second.id]).toMatchObject({ deactivated: false, author_id: org.member2.id });
  });

  test("guests and bots are refused; anonymous callers are unauthorized", async () => {
    await expectUploadRefused(upload(org.guest, "by_guest"), "Not allowed for guest users");
    await expectUploadRefused(upload(org.bot, "by_bot"), "This endpoint does not accept bot requests.");
    const before = storedCount();
    const anonymous = await upload(null, "by_nobody");
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.result).toBe("error");
    expect(storedCount()).toBe(before);
  });

  test("can_add_custom_emoji_group decides who may add: administrators only refuses members and moderators", async () => {
    setRealmSetting(org.server, "can_add_custom_emoji_group", systemGroupId(org.server, "role:administrators"));
    try {
      await expectUploadRefused(upload(org.member, "by_member"), "Insufficient permission");
      await expectUploadRefused(upload(org.moderator, "by_moderator"), "Insufficient permission");
      ok(await upload(org.admin, "by_admin"));
      ok(await upload(org.owner, "by_owner"));
    } finally {
      setRealmSetting(org.server, "can_add_custom_emoji_group", systemGroupId(org.server, "role:members"));
    }
    ok(await upload(org.moderator, "by_moderator"));
  });

  test("only administrators may take a built-in emoji's name", async () => {
    await expectUploadRefused(upload(org.member, "octopus"), "Only administrators can override built-in emoji.");
    await expectUploadRefused(upload(org.moderator, "zulip"), "Only administrators can override built-in emoji.");
  });
});

describe("GET /realm/emoji", () => {
  test("every role sees the same list, deactivated emoji included", async () => {
    ok(await upload(org.member, "listed"));
    ok(await upload(org.member, "gone_from_list"));
    ok(await org.member.api.delete("/realm/emoji/gone_from_list"));
    const seen = await emojiList(org.member);
    expect(Object.values(seen).some((emoji) => emoji.name === "gone_from_list" && emoji.deactivated)).toBe(true);
    for (const person of [org.owner, org.admin, org.moderator, org.member2, org.guest, org.bot]) {
      expect(await emojiList(person)).toEqual(seen);
    }
    for (const [id, emoji] of Object.entries(seen)) expect(emoji.id).toBe(id);
  });

  test("without credentials it is refused", async () => {
    const answer = await org.anon.get("/realm/emoji");
    expect(answer.status).toBe(401);
  });
});

describe("DELETE /realm/emoji/{emoji_name}", () => {
  test("the author deactivates their own emoji; its image stays served", async () => {
    ok(await upload(org.member, "mine_to_remove"));
    const emoji = await emojiNamed("mine_to_remove");
    expect(ok(await org.member.api.delete("/realm/emoji/mine_to_remove"))).toEqual({ result: "success", msg: "" });
    expect((await emojiList())[emoji.id]).toEqual({ ...emoji, deactivated: true });
    expect((await fetchPath(emoji.source_url)).status).toBe(200);
  });

  test("someone else's emoji: other members, moderators, guests and bots are refused; administrators may", async () => {
    ok(await upload(org.member, "not_yours"));
    for (const person of [org.member2, org.moderator, org.guest, org.bot]) {
      const answer = await person.api.delete("/realm/emoji/not_yours");
      expectError(answer, "BAD_REQUEST");
      expect(answer.body.msg).toBe("Must be an organization administrator or emoji author");
      expect((await emojiNamed("not_yours")).deactivated).toBe(false);
    }
    ok(await org.admin.api.delete("/realm/emoji/not_yours"));
    ok(await upload(org.member, "owner_removes"));
    ok(await org.owner.api.delete("/realm/emoji/owner_removes"));
  });

  test("an unknown or already deactivated name is a 404 with the reference's message", async () => {
    const unknown = await org.admin.api.delete("/realm/emoji/green_tick_nowhere");
    expectError(unknown, "BAD_REQUEST", 404);
    expect(unknown.body.msg).toBe("Emoji 'green_tick_nowhere' does not exist");
    ok(await upload(org.member, "removed_twice"));
    ok(await org.member.api.delete("/realm/emoji/removed_twice"));
    const again = await org.member.api.delete("/realm/emoji/removed_twice");
    expectError(again, "BAD_REQUEST", 404);
    expect(again.body.msg).toBe("Emoji 'removed_twice' does not exist");
  });
});

describe("serving emoji images", () => {
  test("unknown files, other realms and path tricks are 404s", async () => {
    const emoji = await emojiNamed("green_tick");
    const fileName = emoji.source_url.split("/").pop()!;
    for (const path of [
      "/user_avatars/1/emoji/images/0000000000000000.png",
      `/user_avatars/2/emoji/images/${fileName}`,
      "/user_avatars/1/emoji/images/..%2F..%2Fparley.db",
      "/user_avatars/1/emoji/images/still/0000000000000000.png",
    ]) {
      const answer = await fetchPath(path);
      expect(answer.status).toBe(404);
      await answer.text();
    }
  });
});

describe("the realm_emoji register section and event", () => {
  test("register's realm_emoji is GET /realm/emoji's list", async () => {
    const state = ok(await org.member2.api.post("/register", { fetch_event_types: ["realm_emoji"] }));
    expect(state.realm_emoji).toEqual(await emojiList());
  });

  test("everyone, guests included, is told the whole new set on upload and on deactivation", async () => {
    const queues = await Promise.all([org.member2, org.guest, org.admin].map(async (person) => ({ person, queueId: (await register(person, { event_types: ["realm_emoji"] })).queue_id as string })));
    ok(await upload(org.member, "evented"));
    const added = await emojiList();
    for (const { person, queueId } of queues) {
      const events = await pendingOf(person, queueId, ["realm_emoji"]);
      expect(events.length).toBe(1);
      expect(events[0]).toEqual({ id: expect.any(Number), type: "realm_emoji", op: "update", realm_emoji: added });
    }
    ok(await org.member.api.delete("/realm/emoji/evented"));
    const deactivated = await emojiList();
    for (const { person, queueId } of queues) {
      const events = await pendingOf(person, queueId, ["realm_emoji"]);
      expect(events.at(-1)).toEqual({ id: expect.any(Number), type: "realm_emoji", op: "update", realm_emoji: deactivated });
    }
  });

  test("a refused upload tells nobody", async () => {
    const { queue_id } = await register(org.member2, { event_types: ["realm_emoji"] });
    await upload(org.guest, "refused_quietly");
    await upload(org.member, "Bad Name");
    expect(await pendingOf(org.member2, queue_id, ["realm_emoji"])).toEqual([]);
  });
});

describe("custom emoji in messages, reactions and statuses", () => {
  test(":name: renders as the emoji's image; a deactivated one stays text in new messages", async () => {
    ok(await upload(org.member, "render_me"));
    const emoji = await emojiNamed("render_me");
    const sent = await sendOk(org.member, channelMessage(channelName, "emoji", "look :render_me: here"));
    const rendered = ok(await org.member.api.get(`/messages/${sent.id}`)).message.content;
    expect(rendered).toBe(`<p>look <img alt=":render_me:" class="emoji" src="${emoji.source_url}" title="render me"> here</p>`);
    ok(await org.member.api.delete("/realm/emoji/render_me"));
    const after = await sendOk(org.member, channelMessage(channelName, "emoji", "look :render_me: here"));
    expect(ok(await org.member.api.get(`/messages/${after.id}`)).message.content).toBe("<p>look :render_me: here</p>");
    // The old message keeps its image.
    expect(ok(await org.member.api.get(`/messages/${sent.id}`)).message.content).toContain(emoji.source_url);
  });

  test("a custom emoji named like a built-in one wins over it in messages and reactions", async () => {
    ok(await upload(org.admin, "tada"));
    const emoji = await emojiNamed("tada");
    const sent = await sendOk(org.member, channelMessage(channelName, "emoji", ":tada:"));
    expect(ok(await org.member.api.get(`/messages/${sent.id}`)).message.content).toContain(`src="${emoji.source_url}"`);
    ok(await org.member.api.post(`/messages/${sent.id}/reactions`, { emoji_name: "tada" }));
    const reactions = ok(await org.member.api.get(`/messages/${sent.id}`)).message.reactions;
    expect(reactions).toEqual([expect.objectContaining({ emoji_name: "tada", emoji_code: emoji.id, reaction_type: "realm_emoji", user_id: org.member.id })]);
    ok(await org.admin.api.delete("/realm/emoji/tada"));
  });

  test("reactions: by name or by code; wrong name, unknown ID and deactivated emoji are refused; old reactions stay", async () => {
    ok(await upload(org.member, "react_me"));
    const emoji = await emojiNamed("react_me");
    const { id } = await sendOk(org.member, channelMessage(channelName, "reactions", "react"));
    const react = (person: Person, params: Record<string, unknown>) => person.api.post(`/messages/${id}/reactions`, params);
    ok(await react(org.member, { emoji_name: "react_me" }));
    ok(await react(org.member2, { emoji_name: "react_me", emoji_code: emoji.id, reaction_type: "realm_emoji" }));
    const refusals: [Record<string, unknown>, string][] = [
      [{ emoji_name: "other_name", emoji_code: emoji.id, reaction_type: "realm_emoji" }, "Invalid custom emoji name."],
      [{ emoji_name: "react_me", emoji_code: "99999", reaction_type: "realm_emoji" }, "Invalid custom emoji."],
      [{ emoji_name: "react_me", emoji_code: "not-an-id", reaction_type: "realm_emoji" }, "Invalid custom emoji."],
    ];
    // On another message: where the emoji is already there, any reaction with its code is a vote.
    const { id: other } = await sendOk(org.member, channelMessage(channelName, "reactions", "no reactions here"));
    for (const [params, msg] of refusals) {
      const answer = await org.guest.api.post(`/messages/${other}/reactions`, params);
      expectError(answer, "BAD_REQUEST");
      expect(answer.body.msg).toBe(msg);
    }
    expect(ok(await org.member.api.get(`/messages/${other}`)).message.reactions).toEqual([]);

    ok(await org.member.api.delete("/realm/emoji/react_me"));
    // A vote for a reaction already on the message is still taken, as in the reference.
    ok(await react(org.guest, { emoji_name: "react_me", emoji_code: emoji.id, reaction_type: "realm_emoji" }));
    // A bare name means active emoji only.
    const byName = await org.admin.api.post("/messages/" + id + "/reactions", { emoji_name: "react_me" });
    expectError(byName, "BAD_REQUEST");
    expect(byName.body.msg).toBe("Emoji 'react_me' does not exist");

    const reactions = ok(await org.member.api.get(`/messages/${id}`)).message.reactions;
    expect(reactions.map((each: any) => [each.user_id, each.emoji_name, each.emoji_code, each.reaction_type])).toEqual([
      [org.member.id, "react_me", emoji.id, "realm_emoji"],
      [org.member2.id, "react_me", emoji.id, "realm_emoji"],
      [org.guest.id, "react_me", emoji.id, "realm_emoji"],
    ]);
    // Its reactions can still be removed.
    ok(await org.member2.api.delete(`/messages/${id}/reactions`, { emoji_code: emoji.id, reaction_type: "realm_emoji" }));
  });

  test("a deactivated emoji cannot start a new reaction: This custom emoji has been deactivated.", async () => {
    ok(await upload(org.member, "retired"));
    const emoji = await emojiNamed("retired");
    ok(await org.member.api.delete("/realm/emoji/retired"));
    const { id } = await sendOk(org.member, channelMessage(channelName, "reactions", "react"));
    const answer = await org.member2.api.post(`/messages/${id}/reactions`, { emoji_name: "retired", emoji_code: emoji.id, reaction_type: "realm_emoji" });
    expectError(answer, "BAD_REQUEST");
    expect(answer.body.msg).toBe("This custom emoji has been deactivated.");
    expect(ok(await org.member.api.get(`/messages/${id}`)).message.reactions).toEqual([]);
  });

  test("user status with a custom emoji, by name or code; deactivated and mismatched ones are refused", async () => {
    ok(await upload(org.member, "status_face"));
    const emoji = await emojiNamed("status_face");
    ok(await org.member2.api.post("/users/me/status", { status_text: "custom", emoji_name: "status_face" }));
    expect(ok(await org.member.api.get(`/users/${org.member2.id}/status`)).status).toEqual({ status_text: "custom", emoji_name: "status_face", emoji_code: emoji.id, reaction_type: "realm_emoji" });
    ok(await org.member2.api.post("/users/me/status", { emoji_name: "status_face", emoji_code: emoji.id, reaction_type: "realm_emoji" }));
    const mismatched = await org.member2.api.post("/users/me/status", { emoji_name: "other", emoji_code: emoji.id, reaction_type: "realm_emoji" });
    expectError(mismatched, "BAD_REQUEST");
    expect(mismatched.body.msg).toBe("Invalid custom emoji name.");
    ok(await org.member.api.delete("/realm/emoji/status_face"));
    const deactivated = await org.guest.api.post("/users/me/status", { emoji_name: "status_face", emoji_code: emoji.id, reaction_type: "realm_emoji" });
    expectError(deactivated, "BAD_REQUEST");
    expect(deactivated.body.msg).toBe("This custom emoji has been deactivated.");
    // A status set before the deactivation keeps its emoji.
    expect(ok(await org.member.api.get(`/users/${org.member2.id}/status`)).status.emoji_code).toBe(emoji.id);
  });
});
