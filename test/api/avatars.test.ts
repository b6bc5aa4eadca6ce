import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, queryServer, setRealmSetting, systemGroupId, uniqueName } from "../helpers/channels";
import { concatBytes, gif, jpeg, png, webp } from "../helpers/images";
import { createPerson, expectError, ok, seedOrg, type Org, type Person } from "../helpers/seed";
import { channelMessage, sendOk } from "../helpers/sending";
import { sessionRequest, signInSession } from "../helpers/sessionClient";
import { basicAuth, uploadFile } from "../helpers/uploads";
import { pending, SEED_TIMEOUT_MS, type Event } from "../events/support";
import { flutterEventProblems, FLUTTER_REGISTER_PARAMS } from "../clients/flutterContract";

/**
 * Avatars (the original's /users/me/avatar): uploading an image, told by its bytes; removing it
 * (back to the Gravatar); the image served without credentials under its hash; and every
 * avatar_url the API hands out (users, messages, register, events) pointing at it.
 */

let org: Org;
let channel: string;
let people = 0;

beforeAll(async () => {
  org = await seedOrg();
  channel = uniqueName("avatars");
  await createChannel(org, org.member, { principals: [org.member.id, org.member2.id, org.guest.id, org.admin.id] }, channel);
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const newPerson = (role?: number) => createPerson(org.owner, org.anon, `Ava Tar ${++people}`, role);

/** A PNG with a text chunk after its header: still a valid image, with bytes (and so a hash) of its own. */
function uniquePng(label = `${Math.random()}`, padding = 0): Uint8Array<ArrayBuffer> {
  const image = png();
  const data = concatBytes(new TextEncoder().encode(`Comment\0${label}`), new Uint8Array(padding));
  const length = Uint8Array.of((data.length >>> 24) & 0xff, (data.length >>> 16) & 0xff, (data.length >>> 8) & 0xff, data.length & 0xff);
  // The CRC is not checked by the server (nor by most decoders of ancillary chunks).
  const chunk = concatBytes(length, new TextEncoder().encode("tEXt"), data, new Uint8Array(4));
  return concatBytes(image.subarray(0, 33), chunk, image.subarray(33));
}

interface Part {
  bytes: Uint8Array | string;
  name?: string;
  type?: string;
}

async function postAvatar(person: Person | null, parts: Part[], extra: Record<string, string> = {}) {
  const form = new FormData();
  for (const [index, part] of parts.entries()) form.append(`file-${index}`, new Blob([part.bytes as BlobPart], { type: part.type ?? "image/png" }), part.name ?? "me.png");
  for (const [name, value] of Object.entries(extra)) form.append(name, value);
  const response = await fetch(new URL("/api/v1/users/me/avatar", org.server.url), { method: "POST", headers: person ? basicAuth(person) : {}, body: form });
  return { status: response.status, body: (await response.json()) as Record<string, any>, headers: response.headers };
}

const uploadAvatar = async (person: Person, bytes: Uint8Array = uniquePng()): Promise<string> => ok(await postAvatar(person, [{ bytes }])).avatar_url;

const fetchPath = (path: string, init?: RequestInit) => fetch(new URL(path, org.server.url), init);

const storedAvatar = (person: Person) => queryServer<{ avatar_file: string | null; avatar_version: number }>(org.server, "SELECT avatar_file, avatar_version FROM users WHERE id = ?", person.id)[0]!;

describe("uploading", () => {
  test("answers the new avatar_url, under the bytes' SHA-256, and bumps avatar_version", async () => {
    const person = await newPerson();
    const before = storedAvatar(person);
    const bytes = uniquePng();
    const response = await postAvatar(person, [{ bytes }]);
    const body = ok(response);
    const sha256 = new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
    expect(body).toEqual({ result: "success", msg: "", avatar_url: `/user_avatars/1/${sha256}` });
    expect(storedAvatar(person)).toEqual({ avatar_file: sha256, avatar_version: before.avatar_version + 1 });
  });

  test("PNG, JPEG, GIF and WebP are taken whatever type or name the client declared, and served as what they are", async () => {
    const person = await newPerson();
    for (const [bytes, type] of [
      [jpeg(), "image/jpeg"],
      [gif(), "image/gif"],
      [webp(), "image/webp"],
      [uniquePng(), "image/png"],
    ] as const) {
      const url = ok(await postAvatar(person, [{ bytes, type: "application/octet-stream", name: "photo.bin" }])).avatar_url;
      const image = await fetchPath(url);
      expect(image.status).toBe(200);
      expect(image.headers.get("content-type")).toBe(type);
      expect(new Uint8Array(await image.arrayBuffer())).toEqual(new Uint8Array(bytes));
    }
  });

  test("from a browser session with the CSRF value, as the settings page does", async () => {
    const person = await newPerson();
    const browser = await signInSession(org.server.url, person);
    const form = new FormData();
    form.append("file", new Blob([uniquePng()], { type: "image/png" }), "me.png");
    const { avatar_url } = ok(await sessionRequest(browser, "POST", "/users/me/avatar", form));
    expect(ok(await person.api.get("/users/me")).avatar_url).toBe(avatar_url);
    expect(ok(await sessionRequest(browser, "DELETE", "/users/me/avatar")).avatar_url).toContain("gravatar.com");
  });

  test("a guest may have an avatar too", async () => {
    const url = await uploadAvatar(org.guest);
    expect(ok(await org.guest.api.get("/users/me")).avatar_url).toBe(url);
    ok(await org.guest.api.delete("/users/me/avatar"));
  });
});

describe("refusals", () => {
  test("not an image: text, HTML, SVG, a PDF; nothing changes", async () => {
    const person = await newPerson();
    const before = storedAvatar(person);
    for (const [bytes, type] of [
      ["just some text", "text/plain"],
      ["<html><script>alert(1)</script></html>", "image/png"],
      ['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "image/svg+xml"],
      ["%PDF-1.4 not an image", "application/pdf"],
    ] as const) {
      const response = await postAvatar(person, [{ bytes, type }]);
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe("Invalid image format");
    }
    expect(storedAvatar(person)).toEqual(before);
  });

  test("an image whose structure does not hold up", async () => {
    const person = await newPerson();
    const truncated = png().subarray(0, 20);
    const response = await postAvatar(person, [{ bytes: truncated }]);
    expectError(response, "BAD_REQUEST");
    expect(response.body.msg).toBe("Could not decode image; did you upload an image file?");
  });

  test("over 5 MiB is refused with the limit; just under it is taken (above the 4 MiB of ordinary requests)", async () => {
    const person = await newPerson();
    const tooBig = uniquePng("big", 5 * 1024 * 1024);
    const response = await postAvatar(person, [{ bytes: tooBig }]);
    expectError(response, "BAD_REQUEST");
    expect(response.body.msg).toBe("Uploaded file is larger than the allowed limit of 5 MiB");
    const justUnder = uniquePng("under", 5 * 1024 * 1024 - 200);
    expect(justUnder.length).toBeLessThanOrEqual(5 * 1024 * 1024);
    const url = ok(await postAvatar(person, [{ bytes: justUnder }])).avatar_url;
    expect((await fetchPath(url)).status).toBe(200);
  });

  test("a body far over every limit is refused before it is read", async () => {
    const person = await newPerson();
    const response = await postAvatar(person, [{ bytes: uniquePng("huge", 30 * 1024 * 1024) }]);
    expect(response.status).toBe(413);
    expect(response.body.result).toBe("error");
  });

  test("no file, two files, or form fields only", async () => {
    const person = await newPerson();
    for (const parts of [[], [{ bytes: uniquePng() }, { bytes: uniquePng() }]]) {
      const response = await postAvatar(person, parts);
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe("You must upload exactly one avatar.");
    }
    expectError(await postAvatar(person, [], { file: "not a file" }), "BAD_REQUEST");
    expectError(await person.api.post("/users/me/avatar", { file: "not a file" }), "BAD_REQUEST");
    expectError(await person.api.post("/users/me/avatar"), "BAD_REQUEST");
  });

  test("bots are refused both ways", async () => {
    for (const response of [await postAvatar(org.bot, [{ bytes: uniquePng() }]), await org.bot.api.delete("/users/me/avatar")]) {
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe("This endpoint does not accept bot requests.");
    }
  });

  test("without credentials, or from a session without the CSRF value", async () => {
    expectError(await postAvatar(null, [{ bytes: uniquePng() }]), "UNAUTHORIZED", 401);
    expectError(await org.anon.delete("/users/me/avatar"), "UNAUTHORIZED", 401);
    const person = await newPerson();
    const browser = await signInSession(org.server.url, person);
    const form = new FormData();
    form.append("file", new Blob([uniquePng()], { type: "image/png" }), "me.png");
    expectError(await sessionRequest(browser, "POST", "/users/me/avatar", form, { csrf: null }), "CSRF_FAILED", 403);
    expectError(await sessionRequest(browser, "DELETE", "/users/me/avatar", {}, { csrf: null }), "CSRF_FAILED", 403);
    expect(storedAvatar(person).avatar_file).toBeNull();
  });
});

describe("the served image", () => {
  test("without credentials, cacheable for good, never sniffed or run", async () => {
    const person = await newPerson();
    const bytes = uniquePng();
    const url = await uploadAvatar(person, bytes);
    const response = await fetchPath(url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array(bytes));
    // A cache-busting query string changes nothing.
    expect((await fetchPath(`${url}?version=7`)).status).toBe(200);
  });

  test("unknown names, other realms, and other stored files (uploads) are 404 in the API's envelope", async () => {
    const url = await uploadAvatar(await newPerson());
    const sha256 = url.split("/").pop()!;
    const uploadUrl = await uploadFile(org, org.member, "secret.png", uniquePng("private upload"), "image/png");
    const uploadSha = queryServer<{ sha256: string }>(org.server, "SELECT sha256 FROM attachments WHERE path_id = ?", uploadUrl.replace("/user_uploads/", ""))[0]!.sha256;
    for (const path of [`/user_avatars/1/${"0".repeat(64)}`, `/user_avatars/2/${sha256}`, `/user_avatars/1/${uploadSha}`, "/user_avatars/1/..%2F..%2Fparley.db", "/user_avatars/1/x"]) {
      const response = await fetchPath(path);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ result: "error", code: "NOT_FOUND" });
    }
  });

  test("a replaced avatar's bytes are removed; bytes someone else still uses are kept", async () => {
    const [first, second] = [await newPerson(), await newPerson()];
    const shared = uniquePng("shared");
    const sharedUrl = await uploadAvatar(first, shared);
    expect(await uploadAvatar(second, shared)).toBe(sharedUrl);
    await uploadAvatar(first);
    expect((await fetchPath(sharedUrl)).status).toBe(200);
    ok(await second.api.delete("/users/me/avatar"));
    expect((await fetchPath(sharedUrl)).status).toBe(404);
    const sha256 = sharedUrl.split("/").pop()!;
    expect(await Bun.file(`${org.server.dataDir}/files/${sha256.slice(0, 2)}/${sha256}`).exists()).toBe(false);
  });

  test("an avatar and an upload of the same bytes: removing either keeps the other", async () => {
    const person = await newPerson();
    const bytes = uniquePng("both");
    const uploadUrl = await uploadFile(org, person, "same.png", bytes, "image/png");
    const avatarUrl = await uploadAvatar(person, bytes);
    const attachment = ok(await person.api.get("/attachments")).attachments[0];
    ok(await person.api.delete(`/attachments/${attachment.id}`));
    expect((await fetchPath(avatarUrl)).status).toBe(200);
    const again = await uploadFile(org, person, "again.png", bytes, "image/png");
    ok(await person.api.delete("/users/me/avatar"));
    expect((await fetch(new URL(again, org.server.url), { headers: basicAuth(person) })).status).toBe(200);
    expect(uploadUrl).not.toBe(again);
  });
});

describe("avatar_url everywhere", () => {
  test("users, messages and register name the uploaded image, even for client_gravatar clients", async () => {
    const person = await newPerson();
    ok(await person.api.post("/users/me/subscriptions", { subscriptions: [{ name: channel }] }));
    const url = await uploadAvatar(person);
    expect(ok(await person.api.get("/users/me")).avatar_url).toBe(url);
    for (const client_gravatar of [true, false]) {
      expect(ok(await org.member.api.get(`/users/${person.id}`, { client_gravatar })).user.avatar_url).toBe(url);
      const members = ok(await org.guest.api.get("/users", { client_gravatar })).members;
      expect(members.find((user: { user_id: number }) => user.user_id === person.id)?.avatar_url).toBe(url);
    }
    const { id } = await sendOk(person, channelMessage(channel, "avatars", "look at my new picture"));
    for (const client_gravatar of [true, false]) {
      const { messages } = ok(await org.member.api.get("/messages", { anchor: id, num_before: 0, num_after: 0, client_gravatar }));
      expect(messages[0].avatar_url).toBe(url);
    }
    const snapshot = ok(await person.api.post("/register", { fetch_event_types: ["realm_user"], client_gravatar: true }));
    expect(snapshot.avatar_source).toBe("U");
    expect(snapshot.avatar_url).toBe(url);
    expect(snapshot.avatar_url_medium).toBe(url);
    expect(snapshot.realm_users.find((user: { user_id: number }) => user.user_id === person.id).avatar_url).toBe(url);
    const seenByOthers = ok(await org.member2.api.post("/register", { fetch_event_types: ["realm_user"], client_gravatar: true }));
    expect(seenByOthers.realm_users.find((user: { user_id: number }) => user.user_id === person.id).avatar_url).toBe(url);
  });

  test("after removal: the Gravatar again, null where the client computes it, a higher version", async () => {
    const person = await newPerson();
    await uploadAvatar(person);
    const { avatar_url } = ok(await person.api.delete("/users/me/avatar"));
    expect(avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=3$/);
    expect(ok(await person.api.get("/users/me")).avatar_url).toBe(avatar_url);
    expect(ok(await org.member.api.get(`/users/${person.id}`, { client_gravatar: false })).user.avatar_url).toBe(avatar_url);
    expect(ok(await org.member.api.get(`/users/${person.id}`, { client_gravatar: true })).user.avatar_url).toBeNull();
    expect(ok(await person.api.get("/users/me")).avatar_version).toBe(3);
    const snapshot = ok(await person.api.post("/register", { fetch_event_types: ["realm_user"] }));
    expect(snapshot.avatar_source).toBe("G");
    expect(snapshot.avatar_url).toBe(avatar_url);
    expect(snapshot.avatar_url_medium).toBe(`${avatar_url}&s=500`);
  });

  test("removing an avatar one never uploaded is fine, and still a new version", async () => {
    const person = await newPerson();
    ok(await person.api.delete("/users/me/avatar"));
    expect(storedAvatar(person)).toEqual({ avatar_file: null, avatar_version: 2 });
  });
});

describe("the realm_user event", () => {
  const avatarEvents = (events: Event[], userId: number) => events.filter((event) => event.type === "realm_user" && event.op === "update" && event.person.user_id === userId);

  test("an upload reaches everyone who may see the person with the four avatar fields; the mobile app parses it", async () => {
    const person = await newPerson();
    const observers = [person, org.member, org.admin, org.guest];
    const queues = await Promise.all(observers.map(async (observer) => ok(await observer.api.post("/register", { ...FLUTTER_REGISTER_PARAMS, event_types: ["realm_user"] })).queue_id as string));
    const url = await uploadAvatar(person);
    for (const [index, observer] of observers.entries()) {
      const events = await pending(observer, queues[index]!);
      const [event] = avatarEvents(events, person.id);
      expect(event).toEqual({ id: expect.any(Number), type: "realm_user", op: "update", person: { user_id: person.id, avatar_source: "U", avatar_url: url, avatar_url_medium: url, avatar_version: 2 } });
      expect(events.flatMap(flutterEventProblems)).toEqual([]);
    }
  });

  test("a removal: the Gravatar, null for client_gravatar clients that may see the address, the URL for those who may not", async () => {
    const person = await newPerson();
    // Only administrators may see this person's address: a member cannot compute the Gravatar.
    ok(await person.api.patch("/settings", { email_address_visibility: 3 }));
    await uploadAvatar(person);
    const register = (observer: Person) => observer.api.post("/register", { event_types: ["realm_user"], client_gravatar: true }).then((response) => ok(response).queue_id as string);
    const [adminQueue, memberQueue, ownQueue] = [await register(org.admin), await register(org.member), await register(person)];
    const legacyQueue = ok(await org.member2.api.post("/register", { event_types: ["realm_user"], client_gravatar: false })).queue_id;
    const { avatar_url } = ok(await person.api.delete("/users/me/avatar"));
    const expected = (url: string | null) => [{ id: expect.any(Number), type: "realm_user", op: "update", person: { user_id: person.id, avatar_source: "G", avatar_url: url, avatar_url_medium: `${avatar_url}&s=500`, avatar_version: 3 } }];
    expect(avatarEvents(await pending(org.admin, adminQueue), person.id)).toEqual(expected(null));
    expect(avatarEvents(await pending(person, ownQueue), person.id)).toEqual(expected(null));
    expect(avatarEvents(await pending(org.member, memberQueue), person.id)).toEqual(expected(avatar_url));
    expect(avatarEvents(await pending(org.member2, legacyQueue), person.id)).toEqual(expected(avatar_url));
  });

  test("a guest restricted to the people they share something with hears nothing", async () => {
    const person = await newPerson();
    setRealmSetting(org.server, "can_access_all_users_group", systemGroupId(org.server, "role:members"));
    try {
      const guestQueue = ok(await org.guest.api.post("/register", { event_types: ["realm_user"] })).queue_id;
      const memberQueue = ok(await org.member.api.post("/register", { event_types: ["realm_user"] })).queue_id;
      await uploadAvatar(person);
      expect(avatarEvents(await pending(org.guest, guestQueue), person.id)).toEqual([]);
      expect(avatarEvents(await pending(org.member, memberQueue), person.id).length).toBe(1);
    } finally {
      setRealmSetting(org.server, "can_access_all_users_group", systemGroupId(org.server, "role:everyone"));
    }
  });
});
