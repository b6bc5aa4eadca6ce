import type { ApiAttachment } from "../../src/shapes/attachments";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createChannel, queryServer, setRealmSetting, subscribe, uniqueName } from "../helpers/channels";
import { ApiClient } from "../helpers/client";
import { type Org, type Person, createPerson, expectError, ok, seedOrg } from "../helpers/seed";
import { basicAuth, download, postUpload, uploadFile } from "../helpers/uploads";
import { SEED_TIMEOUT_MS, type Event, pending } from "../events/support";

/**
 * Uploads (the reference's /user_uploads and /attachments): uploading as the clients do,
 * downloading with the right headers and only by those who may, linking to messages, limits,
 * deleting, events, and durability of the stored bytes.
 */

let org: Org;
beforeAll(async () => {
  org = await seedOrg();
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const attachmentsOf = async (person: Person) => ok(await person.api.get("/attachments")) as { attachments: ApiAttachment[]; upload_space_used: number };
const attachmentAt = async (person: Person, url: string) => (await attachmentsOf(person)).attachments.find((each) => decodeURIComponent(url) === `/user_uploads/${each.path_id}`);
/** How clients put an upload in a message: a Markdown link named by the file (a bare relative path is no link). */
const link = (url: string) => `[${decodeURIComponent(url.slice(url.lastIndexOf("/") + 1))}](${url})`;
const idOf = async (person: Person, url: string) => (await attachmentAt(person, url))!.id;

const storedRows = () => queryServer<{ n: number }>(org.server, "SELECT count(*) AS n FROM attachments")[0]!.n;
const spaceUsed = () => queryServer<{ n: number }>(org.server, "SELECT coalesce(sum(size), 0) AS n FROM attachments")[0]!.n;
const sha256 = (bytes: Uint8Array | string) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
const storedPath = (hash: string) => join(org.server.dataDir, "files", hash.slice(0, 2), hash);
/** Every file in the store (temporary ones included). */
const storeFiles = () => (existsSync(join(org.server.dataDir, "files")) ? readdirSync(join(org.server.dataDir, "files"), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length : 0);

const NOT_FOUND = { result: "error", msg: "This file does not exist or has been deleted.", code: "BAD_REQUEST" };

async function expectHidden(person: Person | null, url: string) {
  const response = await download(org, person, url);
  expect({ who: person?.email ?? "nobody", status: response.status, body: await response.json() }).toEqual({ who: person?.email ?? "nobody", status: 404, body: NOT_FOUND });
}

async function expectServed(person: Person | null, url: string, bytes: string) {
  const response = await download(org, person, url);
  expect({ who: person?.email ?? "nobody", status: response.status, body: await response.text() }).toEqual({ who: person?.email ?? "nobody", status: 200, body: bytes });
}

const dm = (from: Person, to: Person[], content: string) => from.api.post("/messages", { type: "direct", to: JSON.stringify(to.map((person) => person.id)), content }).then(ok);
const toChannel = (from: Person, channel: number, content: string, topic = "files") => from.api.post("/messages", { type: "stream", to: channel, topic, content }).then(ok);

const png = (seed: string) => `\x89PNG\r\n\x1a\n${seed}`;

describe("POST /user_uploads", () => {
  test("one file, as zulip-flutter sends it: the reference's answer, listed as the caller's", async () => {
    const before = Math.floor(Date.now() / 1000);
    const bytes = "hello, uploads";
    const response = await postUpload(org, org.member, [{ field: "file", name: "zulip.txt", bytes, type: "text/plain" }]);
    expect(response.body).toEqual({ result: "success", msg: "", uri: expect.any(String), url: expect.any(String), filename: "zulip.txt" });
    expect(response.status).toBe(200);
    const { url } = response.body;
    expect(url).toMatch(/^\/user_uploads\/1\/[A-Za-z0-9]{24}\/zulip\.txt$/);
    expect(response.body.uri).toBe(url);
    const listed = (await attachmentsOf(org.member)).attachments.find((each) => url.endsWith(each.path_id))!;
    expect(listed).toEqual({ id: expect.any(Number), name: "zulip.txt", path_id: url.slice("/user_uploads/".length), size: bytes.length, create_time: expect.any(Number), messages: [] });
    expect(listed.create_time % 1000).toBe(0);
    expect(listed.create_time / 1000).toBeGreaterThanOrEqual(before - 1);
    expect(existsSync(storedPath(sha256(bytes)))).toBe(true);
    await expectServed(org.member, url, bytes);
  });

  test("python-zulip-api's form (the field named by the file's path, no declared type); the type guessed from the name", async () => {
    const response = await postUpload(org, org.member, [{ field: "/home/me/pictures/cat.png", name: "cat.png", bytes: png("cat") }]);
    const { url } = ok(response);
    expect(url).toEndWith("/cat.png");
    expect((await download(org, org.member, url)).headers.get("content-type")).toBe("image/png");
  });

  test("every role may upload, bots and guests included; each lists only their own", async () => {
    const people = [org.owner, org.admin, org.moderator, org.member2, org.guest, org.bot];
    const urls = await Promise.all(people.map((person, index) => uploadFile(org, person, `own-${index}.txt`)));
    for (const [index, person] of people.entries()) {
      const own = (await attachmentsOf(person)).attachments.map((each) => `/user_uploads/${each.path_id}`);
      expect(own).toContain(urls[index]);
      expect(own.filter((url) => urls.includes(url))).toEqual([urls[index]]);
    }
  });

  test("names: the URL holds a safe form, the listing and the answer the name as given", async () => {
    const cases: Array<[string, string, string]> = [
      ["my photo (1).png", "my-photo-1.png", "my photo (1).png"],
      ["C:\\Users\\me\\report.pdf", "report.pdf", "report.pdf"],
      ["%E2%9C%93 done.txt", "done.txt", "✓ done.txt"],
      ["Übersicht 2024.txt", "%C3%9Cbersicht-2024.txt", "Übersicht 2024.txt"],
      ["<script>.html", "script.html", "<script>.html"],
      ["..", "uploaded-file", "uploaded-file"],
    ];
    for (const [given, inUrl, listed] of cases) {
      const body = ok(await postUpload(org, org.member, [{ name: given, bytes: `named ${given}` }]));
      expect({ given, url: body.url.split("/").pop(), filename: body.filename }).toEqual({ given, url: inUrl, filename: listed });
      expect((await attachmentAt(org.member, body.url))?.name).toBe(listed);
      await expectServed(org.member, body.url, `named ${given}`);
    }
  });

  test("the same bytes twice: two uploads with their own URLs, stored once", async () => {
    const bytes = `twice ${Math.random()}`;
    const before = storeFiles();
    const [a, b] = [await uploadFile(org, org.member, "a.txt", bytes), await uploadFile(org, org.member2, "b.txt", bytes)];
    expect(a).not.toBe(b);
    expect(storeFiles()).toBe(before + 1);
    await expectServed(org.member, a, bytes);
    await expectServed(org.member2, b, bytes);
  });

  test("an empty file is a file (the reference accepts it)", async () => {
    const url = await uploadFile(org, org.member, "empty.txt", "");
    expect((await attachmentAt(org.member, url))?.size).toBe(0);
    await expectServed(org.member, url, "");
  });

  describe("refusals store nothing", () => {
    const refused = async (send: () => Promise<{ status: number; body: any }>, msg: string, status = 400) => {
      const [rows, files] = [storedRows(), storeFiles()];
      const response = await send();
      expectError(response, "BAD_REQUEST", status);
      expect(response.body.msg).toBe(msg);
      expect([storedRows(), storeFiles()]).toEqual([rows, files]);
    };
    const raw = async (contentType: string | null, body: BodyInit) => {
      const headers: Record<string, string> = basicAuth(org.member);
      if (contentType !== null) headers["content-type"] = contentType;
      const response = await fetch(new URL("/api/v1/user_uploads", org.server.url), { method: "POST", headers, body });
      return { status: response.status, body: await response.json() };
    };

    test("no file: an empty form, only text fields, a JSON or urlencoded body", async () => {
      await refused(() => postUpload(org, org.member, []), "You must specify a file to upload");
      await refused(() => postUpload(org, org.member, [], { file: "not a file", filename: "x.txt" }), "You must specify a file to upload");
      await refused(() => raw("application/json", JSON.stringify({ file: "abc" })), "You must specify a file to upload");
      await refused(() => raw("application/json", "[1, 2]"), "You must specify a file to upload");
      await refused(() => raw("application/x-www-form-urlencoded", "file=abc"), "You must specify a file to upload");
      await refused(() => raw("text/plain", "abc"), "You must specify a file to upload");
      await refused(() => raw(null, ""), "You must specify a file to upload");
    });

    test("two files", async () => {
      await refused(() => postUpload(org, org.member, [{ field: "f1", name: "a.txt", bytes: "a" }, { field: "f2", name: "b.txt", bytes: "b" }]), "You may only upload one file at a time");
    });

    test("malformed multipart bodies", async () => {
      await refused(() => raw("multipart/form-data", "--x\r\n"), "Malformed request body");
      await refused(() => raw("multipart/form-data; boundary=zz", '--zz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nunterminated'), "Malformed request body");
    });

    test("without credentials, or with wrong ones", async () => {
      expectError(await postUpload(org, null, [{ name: "a.txt", bytes: "a" }]), "UNAUTHORIZED", 401);
      expectError(await postUpload(org, { ...org.member, apiKey: "wrong" }, [{ name: "a.txt", bytes: "a" }]), "INVALID_API_KEY", 401);
    });
  });

  describe("size limit and quota", () => {
    test("max_file_upload_size_mib: at the limit accepted, one byte over refused in the reference's words", async () => {
      setRealmSetting(org.server, "max_file_upload_size_mib", 1);
      try {
        expect(ok(await org.member.api.post("/register", { fetch_event_types: ["realm"] })).max_file_upload_size_mib).toBe(1);
        const mib = new Uint8Array(1024 * 1024).fill(7);
        ok(await postUpload(org, org.member, [{ name: "exactly.bin", bytes: mib }]));
        const [rows, files] = [storedRows(), storeFiles()];
        const over = await postUpload(org, org.member, [{ name: "over.bin", bytes: new Uint8Array(1024 * 1024 + 1) }]);
        expectError(over, "BAD_REQUEST");
        expect(over.body.msg).toBe("Uploaded file is larger than the allowed limit of 1 MiB");
        expect([storedRows(), storeFiles()]).toEqual([rows, files]);
      } finally {
        setRealmSetting(org.server, "max_file_upload_size_mib", 25);
      }
    });

    test("the organization cannot raise the limit past the server's 25 MiB; a larger body is refused unread", async () => {
      setRealmSetting(org.server, "max_file_upload_size_mib", 100);
      try {
        const state = ok(await org.member.api.post("/register", { fetch_event_types: ["realm"] }));
        expect(state.max_file_upload_size_mib).toBe(25);
        expect(state.realm_max_file_upload_size_mib).toBeUndefined();
        const over = await postUpload(org, org.member, [{ name: "huge.bin", bytes: new Uint8Array(26 * 1024 * 1024) }]);
        expectError(over, "BAD_REQUEST", 413);
        expect(over.body.msg).toBe("Uploaded file is larger than the allowed limit of 25 MiB");
      } finally {
        setRealmSetting(org.server, "max_file_upload_size_mib", 25);
      }
    });

    test("a fresh organization's quotas are bounded: 10 GiB in all, 1 GiB per person", async () => {
      const state = ok(await org.member.api.post("/register", { fetch_event_types: ["realm"] }));
      expect({ all: state.realm_upload_quota_mib, person: state.realm_upload_quota_per_user_mib }).toEqual({ all: 10_240, person: 1_024 });
    });

    test("upload_quota_per_user_mib: a person's uploads and their bots' fit until their total would pass it; others are not held back", async () => {
      const person = await createPerson(org.owner, org.anon, `Quota ${uniqueName("person")}`);
      const botBody = ok(await person.api.post("/bots", { full_name: "Quota Bot", short_name: uniqueName("quota"), bot_type: 1 }));
      const bot: Person = { id: botBody.user_id, email: botBody.email, password: "", apiKey: botBody.api_key, api: org.anon.as(botBody.email, botBody.api_key) };
      const kib = (n: number, fill: number) => new Uint8Array(n * 1024).fill(fill);
      setRealmSetting(org.server, "upload_quota_per_user_mib", 1);
      try {
        const own = await uploadFile(org, person, "own.bin", kib(600, 1));
        await uploadFile(org, bot, "bot.bin", kib(300, 2));
        const [rows, files] = [storedRows(), storeFiles()];
        const QUOTA = "Upload would exceed your upload quota of 1 MiB (your uploads and your bots' together); an organization owner can raise it.";
        for (const uploader of [person, bot]) {
          const refused = await postUpload(org, uploader, [{ name: "more.bin", bytes: kib(200, 3) }]);
          expectError(refused, "BAD_REQUEST");
          expect(refused.body.msg).toBe(QUOTA);
        }
        expect([storedRows(), storeFiles()]).toEqual([rows, files]);
        ok(await postUpload(org, org.member2, [{ name: "someone-else.bin", bytes: kib(200, 4) }]));
        ok(await person.api.delete(`/attachments/${await idOf(person, own)}`));
        ok(await postUpload(org, person, [{ name: "room-again.bin", bytes: kib(200, 3) }]));
      } finally {
        setRealmSetting(org.server, "upload_quota_per_user_mib", 1_024);
      }
    });

    test("GET /realm/upload_usage: the quotas, the total, and each person's use with their bots', for administrators", async () => {
      const usage = ok(await org.admin.api.get("/realm/upload_usage"));
      expect(usage.upload_space_used).toBe(spaceUsed());
      expect({ all: usage.upload_quota_mib, person: usage.upload_quota_per_user_mib }).toEqual({ all: 10_240, person: 1_024 });
      const byPerson = queryServer<{ holder: number; bytes: number }>(
        org.server,
        "SELECT coalesce(CASE WHEN u.is_bot THEN u.bot_owner_id END, u.id) AS holder, sum(a.size) AS bytes FROM attachments a JOIN users u ON u.id = a.owner_id GROUP BY holder ORDER BY bytes DESC, holder",
      );
      expect(usage.users).toEqual(byPerson.map((row) => ({ user_id: row.holder, upload_space_used: row.bytes })));
      expect(usage.users.some((row: { user_id: number }) => row.user_id === org.bot.id)).toBe(false);
      for (const person of [org.moderator, org.member, org.guest, org.bot]) expectError(await person.api.get("/realm/upload_usage"), "UNAUTHORIZED_PRINCIPAL");
    });

    test("upload_quota_mib: uploads fit until the organization's total would pass it", async () => {
      const used = spaceUsed();
      const quotaMib = Math.ceil(used / (1024 * 1024)) + 1;
      setRealmSetting(org.server, "upload_quota_mib", quotaMib);
      try {
        expect(ok(await org.member.api.post("/register", { fetch_event_types: ["realm"] })).realm_upload_quota_mib).toBe(quotaMib);
        const room = quotaMib * 1024 * 1024 - used;
        const [rows, files] = [storedRows(), storeFiles()];
        const refused = await postUpload(org, org.member2, [{ name: "too-much.bin", bytes: new Uint8Array(room + 1).fill(1) }]);
        expectError(refused, "REALM_UPLOAD_QUOTA");
        expect(refused.body.msg).toBe("Upload would exceed your organization's upload quota.");
        expect([storedRows(), storeFiles()]).toEqual([rows, files]);
        const filling = await uploadFile(org, org.member2, "fits.bin", new Uint8Array(room).fill(2));
        expectError(await postUpload(org, org.member2, [{ name: "one-more.txt", bytes: "x" }]), "REALM_UPLOAD_QUOTA");
        ok(await org.member2.api.delete(`/attachments/${await idOf(org.member2, filling)}`));
        ok(await postUpload(org, org.member2, [{ name: "room-again.txt", bytes: "x" }]));
      } finally {
        setRealmSetting(org.server, "upload_quota_mib", null);
      }
      expect(ok(await org.member.api.post("/register", { fetch_event_types: ["realm"] })).realm_upload_quota_mib).toBeNull();
    });
  });
});

describe("downloading /user_uploads/...", () => {
  test("headers: the stored type, shown in place only if safe, never sniffed, no script, cached privately", async () => {
    const url = await uploadFile(org, org.member, "picture.png", png("picture"), "image/png");
    const response = await download(org, org.member, url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("content-disposition")).toBe(`inline; filename="picture.png"; filename*=UTF-8''picture.png`);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(response.headers.get("content-security-policy")).toContain("sandbox");
    expect(response.headers.get("cache-control")).toStartWith("private");
    expect(await response.text()).toBe(png("picture"));
  });

  test("the type follows the file's name, whatever the part declares; HTML, SVG and unknown types are downloads, never pages of ours", async () => {
    // Bun's multipart parser types a file part by its name (the reference guesses from the name
    // when no type is given): a declared type cannot make a page of a picture or the reverse.
    const cases: Array<[string, string, string, string]> = [
      ["page.html", "text/plain", "text/html", "attachment"],
      ["drawing.svg", "image/png", "image/svg+xml", "attachment"],
      ["data.bin", "image/png", "application/octet-stream", "attachment"],
      ["no-extension", "text/html", "application/octet-stream", "attachment"],
      ["sneaky.png", "text/html; charset=utf-8", "image/png", "inline"],
    ];
    for (const [name, declared, stored, disposition] of cases) {
      // Written out by hand: a client library would tidy the declared types up first.
      const part = `--zz\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${declared}\r\n\r\n<html><script>alert(1)</script></html>\r\n--zz--\r\n`;
      const posted = await fetch(new URL("/api/v1/user_uploads", org.server.url), { method: "POST", headers: { ...basicAuth(org.member), "content-type": "multipart/form-data; boundary=zz" }, body: part });
      const url = ok({ status: posted.status, body: await posted.json() }).url;
      const response = await download(org, org.member, url);
      expect({ name, type: response.headers.get("content-type"), disposition: response.headers.get("content-disposition")?.split(";")[0] }).toEqual({ name, type: stored, disposition });
      expect(response.headers.get("content-security-policy")).toContain("sandbox");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    }
    const pdf = await download(org, org.member, await uploadFile(org, org.member, "paper.pdf", "%PDF-1.4", "application/pdf"));
    expect(pdf.headers.get("content-disposition")).toStartWith("inline;");
    expect(pdf.headers.get("content-security-policy")).toContain("default-src 'none'");
  });

  test("a name with quotes and non-ASCII letters in Content-Disposition", async () => {
    const url = await uploadFile(org, org.member, 'Ünïcode "quoted".txt', "x", "text/plain");
    expect((await download(org, org.member, url)).headers.get("content-disposition")).toBe(`inline; filename="_n_code _quoted_.txt"; filename*=UTF-8''%C3%9Cn%C3%AFcode%20%22quoted%22.txt`);
  });

  test("an upload nobody was sent: its owner only; everyone else, and nobody, is told it does not exist", async () => {
    const url = await uploadFile(org, org.member, "private.txt", "private bytes");
    await expectServed(org.member, url, "private bytes");
    for (const person of [org.member2, org.admin, org.owner, org.moderator, org.guest, org.bot, null]) await expectHidden(person, url);
    // Exactly as a path that never existed.
    await expectHidden(org.member2, url.replace(/\/[A-Za-z0-9]{24}\//, "/AAAAAAAAAAAAAAAAAAAAAAAA/"));
    const badKey = await download(org, { ...org.member, apiKey: "wrong" }, url);
    expect(badKey.status).toBe(401);
    expect((await badKey.json()).code).toBe("INVALID_API_KEY");
  });

  test("unknown realms, traversal and malformed paths are not found", async () => {
    const url = await uploadFile(org, org.member, "here.txt", "here");
    const rest = url.slice("/user_uploads/1/".length);
    for (const path of [`/user_uploads/2/${rest}`, `/user_uploads/1/${rest}/extra`, "/user_uploads/1/..%2F..%2Fparley.db", "/user_uploads/1/%E0%A4%A", "/user_uploads/1/", `/user_uploads/01/${rest}`]) {
      const response = await download(org, org.member, path);
      expect({ path, status: response.status, json: response.headers.get("content-type")?.startsWith("application/json") }).toEqual({ path, status: 404, json: true });
    }
  });

  test("a direct message shares it with its participants, not with administrators or guests outside it", async () => {
    const url = await uploadFile(org, org.member, "for-max.txt", "for max");
    await dm(org.member, [org.member2], `[for-max.txt](${url})`);
    await expectServed(org.member2, url, "for max");
    for (const person of [org.admin, org.owner, org.guest, null]) await expectHidden(person, url);
  });

  test("a public channel shares it with members, not with guests who are not subscribed", async () => {
    const channel = await createChannel(org, org.owner, { principals: JSON.stringify([org.owner.id, org.member.id]) });
    const url = await uploadFile(org, org.member, "public.txt", "public");
    await toChannel(org.member, channel, `see ${link(url)}`);
    for (const person of [org.member2, org.admin, org.moderator]) await expectServed(person, url, "public");
    await expectHidden(org.guest, url);
    await expectHidden(null, url);
    ok(await org.owner.api.post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: (ok(await org.owner.api.get(`/streams/${channel}`)).stream.name) }]), principals: JSON.stringify([org.guest.id]) }));
    await expectServed(org.guest, url, "public");
  });

  test("a private channel with protected history: only those who received the message", async () => {
    const name = uniqueName("protected");
    const channel = await createChannel(org, org.member, { invite_only: true, history_public_to_subscribers: false }, name);
    const url = await uploadFile(org, org.member, "secret.txt", "secret");
    await toChannel(org.member, channel, `[secret.txt](${url})`);
    await subscribe(org.member, [name], { principals: JSON.stringify([org.member2.id]) });
    // Subscribed now, but the message came before.
    await expectHidden(org.member2, url);
    await expectHidden(org.admin, url);
  });

  test("a web-public channel: spectators too, while the organization allows them", async () => {
    setRealmSetting(org.server, "enable_spectator_access", true);
    try {
      const channel = await createChannel(org, org.owner, { is_web_public: true, principals: JSON.stringify([org.owner.id, org.member.id]) });
      const url = await uploadFile(org, org.member, "everyone.txt", "for everyone");
      await toChannel(org.member, channel, `[everyone.txt](${url})`);
      await expectServed(null, url, "for everyone");
      await expectServed(org.guest, url, "for everyone");
      setRealmSetting(org.server, "enable_spectator_access", false);
      await expectHidden(null, url);
      // A private upload stays private however public the organization is.
      setRealmSetting(org.server, "enable_spectator_access", true);
      await expectHidden(null, await uploadFile(org, org.member, "mine.txt"));
    } finally {
      setRealmSetting(org.server, "enable_spectator_access", false);
    }
  });

  test("the bytes survive a restart", async () => {
    const url = await uploadFile(org, org.member, "durable.txt", "still here");
    await org.server.restart("SIGKILL");
    org.anon = new ApiClient(org.server.url);
    for (const role of ["owner", "admin", "moderator", "member", "member2", "guest", "bot"] as const) org[role] = { ...org[role], api: org.anon.as(org[role].email, org[role].apiKey) };
    await expectServed(org.member, url, "still here");
  });
});

describe("temporary URLs: GET /api/v1/user_uploads/{realm_id}/{filename}", () => {
  const temporaryUrl = async (person: Person, url: string) => person.api.get(url);

  test("the owner (or anyone who may download) gets a URL that works without credentials", async () => {
    const url = await uploadFile(org, org.member, "temp.txt", "temporary");
    const body = ok(await temporaryUrl(org.member, url));
    expect(body).toEqual({ result: "success", msg: "", url: expect.stringMatching(/^\/user_uploads\/temporary\/[^/]+\/temp\.txt$/) });
    await expectServed(null, body.url, "temporary");
    await dm(org.member, [org.member2], link(url));
    await expectServed(null, ok(await temporaryUrl(org.member2, url)).url, "temporary");
  });

  test("nobody else gets one; a forged, altered or misnamed token opens nothing", async () => {
    const url = await uploadFile(org, org.member, "guarded.txt", "guarded");
    const refused = await temporaryUrl(org.guest, url);
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual(NOT_FOUND);
    expectError(await org.anon.get(url), "UNAUTHORIZED", 401);
    const good = ok(await temporaryUrl(org.member, url)).url as string;
    const [, , , token] = good.split("/");
    const [id, expires, signature] = token!.split(".");
    const forged = [
      `/user_uploads/temporary/${id}.${Number(expires) + 3600}.${signature}/guarded.txt`,
      `/user_uploads/temporary/${Number(id) - 1}.${expires}.${signature}/guarded.txt`,
      `/user_uploads/temporary/${id}.${expires}.${"A".repeat(43)}/guarded.txt`,
      `/user_uploads/temporary/not-a-token/guarded.txt`,
    ];
    for (const path of forged) {
      const response = await download(org, null, path);
      expect({ path, status: response.status, body: await response.json() }).toEqual({ path, status: 400, body: { result: "error", msg: "Invalid token", code: "BAD_REQUEST" } });
    }
    const misnamed = await download(org, null, good.replace(/guarded\.txt$/, "other.txt"));
    expect(await misnamed.json()).toEqual({ result: "error", msg: "Invalid filename", code: "BAD_REQUEST" });
  });
});

describe("linking uploads to messages", () => {
  test("a sender links only what they may download: someone's private upload stays unlinked and hidden", async () => {
    const url = await uploadFile(org, org.member, "not-yours.txt", "not yours");
    const sent = await dm(org.member2, [org.guest], `look: ${link(url)}`);
    expect((await attachmentAt(org.member, url))!.messages).toEqual([]);
    await expectHidden(org.guest, url);
    const narrowed = ok(await org.guest.api.get("/messages", { anchor: sent.id, num_before: 0, num_after: 0, narrow: JSON.stringify([{ operator: "has", operand: "attachment" }]) }));
    expect(narrowed.messages).toEqual([]);
  });

  test("reshared by someone who may download it: linked to both messages, listed under its owner", async () => {
    const url = await uploadFile(org, org.member, "reshared.txt", "reshared");
    const first = await dm(org.member, [org.member2], link(url));
    const second = await dm(org.member2, [org.moderator], `forwarding [reshared.txt](${url})`);
    expect((await attachmentAt(org.member, url))!.messages.map((each) => each.id)).toEqual([first.id, second.id]);
    await expectServed(org.moderator, url, "reshared");
    const found = ok(await org.moderator.api.get("/messages", { anchor: second.id, num_before: 0, num_after: 0, narrow: JSON.stringify([{ operator: "has", operand: "attachment" }]) }));
    expect(found.messages.map((each: { id: number }) => each.id)).toEqual([second.id]);
  });

  test("the listing gives each linking message with its time in milliseconds", async () => {
    const url = await uploadFile(org, org.member, "timed.txt");
    const sent = await dm(org.member, [org.member2], link(url));
    const message = ok(await org.member.api.get(`/messages/${sent.id}`)).message;
    expect((await attachmentAt(org.member, url))!.messages).toEqual([{ id: sent.id, date_sent: message.timestamp * 1000 }]);
  });

  test("an image is previewed inline as Zulip renders it; other files stay links; quotes are not previewed", async () => {
    const image = await uploadFile(org, org.member, "photo.jpg", png("photo"), "image/jpeg");
    const pdf = await uploadFile(org, org.member, "paper.pdf", "%PDF", "application/pdf");
    const sent = await dm(org.member, [org.member2], `[photo.jpg](${image})`);
    expect(ok(await org.member2.api.get(`/messages/${sent.id}`)).message.content).toBe(`<div class="message_inline_image"><a href="${image}" title="photo.jpg"><img src="${image}"></a></div>`);
    const other = await dm(org.member, [org.member2], `[paper.pdf](${pdf})\n\n> [photo.jpg](${image})`);
    expect(ok(await org.member2.api.get(`/messages/${other.id}`)).message.content).toBe(`<p><a href="${pdf}">paper.pdf</a></p>\n<blockquote>\n<p><a href="${image}">photo.jpg</a></p>\n</blockquote>`);
    // Both are linked all the same.
    expect((await attachmentAt(org.member, image))!.messages.map((each) => each.id)).toEqual([sent.id, other.id]);
  });

  test("links in code are not links", async () => {
    const url = await uploadFile(org, org.member, "code.txt");
    await dm(org.member, [org.member2], `\`${link(url)}\``);
    expect((await attachmentAt(org.member, url))!.messages).toEqual([]);
  });

  test("an absolute link into this organization counts", async () => {
    const url = await uploadFile(org, org.member, "absolute.txt", "absolute");
    const realmUrl = ok(await org.member.api.get("/server_settings")).realm_url;
    const sent = await dm(org.member, [org.member2], `${realmUrl}${url}`);
    expect((await attachmentAt(org.member, url))!.messages.map((each) => each.id)).toEqual([sent.id]);
  });

  test("edits link newly named uploads and unlink those no longer named; the upload stays", async () => {
    const [a, b] = [await uploadFile(org, org.member, "edit-a.txt"), await uploadFile(org, org.member, "edit-b.txt")];
    const sent = await dm(org.member, [org.member2], "nothing yet");
    ok(await org.member.api.patch(`/messages/${sent.id}`, { content: `now ${link(a)}` }));
    expect((await attachmentAt(org.member, a))!.messages.map((each) => each.id)).toEqual([sent.id]);
    ok(await org.member.api.patch(`/messages/${sent.id}`, { content: `instead ${link(b)}` }));
    expect((await attachmentAt(org.member, a))!.messages).toEqual([]);
    expect((await attachmentAt(org.member, b))!.messages.map((each) => each.id)).toEqual([sent.id]);
    await expectHidden(org.member2, a);
    const narrow = (id: number) => ({ anchor: id, num_before: 0, num_after: 0, narrow: JSON.stringify([{ operator: "has", operand: "attachment" }]) });
    expect(ok(await org.member2.api.get("/messages", narrow(sent.id))).messages).toHaveLength(1);
    ok(await org.member.api.patch(`/messages/${sent.id}`, { content: "no files" }));
    expect(ok(await org.member2.api.get("/messages", narrow(sent.id))).messages).toHaveLength(0);
  });

  test("a scheduled message links its uploads when it is delivered", async () => {
    // Two seconds ahead: one, computed here late in a second, can be past by the time it arrives.
    const url = await uploadFile(org, org.member, "later.txt", "later");
    ok(await org.member.api.post("/scheduled_messages", { type: "direct", to: JSON.stringify([org.member2.id]), content: `[later.txt](${url})`, scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 2 }));
    await expectHidden(org.member2, url);
    for (let tries = 0; tries < 120 && (await attachmentAt(org.member, url))!.messages.length === 0; tries++) await Bun.sleep(50);
    expect((await attachmentAt(org.member, url))!.messages).toHaveLength(1);
    await expectServed(org.member2, url, "later");
  });
});

describe("deleting", () => {
  test("DELETE /attachments/{id}: the row, then the bytes; the URL is gone for everyone", async () => {
    const bytes = `to delete ${Math.random()}`;
    const url = await uploadFile(org, org.member, "gone.txt", bytes);
    await dm(org.member, [org.member2], link(url));
    const id = await idOf(org.member, url);
    const used = spaceUsed();
    expect(ok(await org.member.api.delete(`/attachments/${id}`))).toEqual({ result: "success", msg: "" });
    expect(await attachmentAt(org.member, url)).toBeUndefined();
    expect((await attachmentsOf(org.member)).upload_space_used).toBe(used - bytes.length);
    expect(existsSync(storedPath(sha256(bytes)))).toBe(false);
    await expectHidden(org.member, url);
    await expectHidden(org.member2, url);
  });

  test("bytes another upload still uses stay until that one goes too", async () => {
    const bytes = `shared ${Math.random()}`;
    const [mine, theirs] = [await uploadFile(org, org.member, "one.txt", bytes), await uploadFile(org, org.member2, "two.txt", bytes)];
    ok(await org.member.api.delete(`/attachments/${await idOf(org.member, mine)}`));
    expect(existsSync(storedPath(sha256(bytes)))).toBe(true);
    await expectServed(org.member2, theirs, bytes);
    ok(await org.member2.api.delete(`/attachments/${await idOf(org.member2, theirs)}`));
    expect(existsSync(storedPath(sha256(bytes)))).toBe(false);
  });

  test("someone else's upload, an unknown ID or a malformed one: refused, nothing changed", async () => {
    const url = await uploadFile(org, org.member, "keep.txt", "keep");
    const id = await idOf(org.member, url);
    for (const person of [org.member2, org.admin, org.owner, org.guest]) {
      const refused = await person.api.delete(`/attachments/${id}`);
      expect({ who: person.email, status: refused.status, body: refused.body }).toEqual({ who: person.email, status: 400, body: { result: "error", msg: "Invalid attachment", code: "BAD_REQUEST" } });
    }
    expect((await org.member.api.delete("/attachments/99999999")).body.msg).toBe("Invalid attachment");
    for (const bad of ["abc", "1.5", "-", "99999999999999999999999"]) expectError(await org.member.api.delete(`/attachments/${bad}`), "BAD_REQUEST");
    expectError(await org.anon.delete(`/attachments/${id}`), "UNAUTHORIZED", 401);
    await expectServed(org.member, url, "keep");
  });

  test("deleting the last message that links an upload deletes it; while another links it, it stays", async () => {
    const bytes = `linked twice ${Math.random()}`;
    const url = await uploadFile(org, org.member, "twice.txt", bytes);
    const first = await dm(org.member, [org.member2], link(url));
    const second = await dm(org.member, [org.member2], `again ${link(url)}`);
    ok(await org.member.api.delete(`/messages/${first.id}`));
    expect((await attachmentAt(org.member, url))!.messages.map((each) => each.id)).toEqual([second.id]);
    await expectServed(org.member2, url, bytes);
    ok(await org.member.api.delete(`/messages/${second.id}`));
    expect(await attachmentAt(org.member, url)).toBeUndefined();
    expect(existsSync(storedPath(sha256(bytes)))).toBe(false);
    await expectHidden(org.member, url);
  });

  test("deleting a topic releases its uploads", async () => {
    const name = uniqueName("doomed");
    const channel = await createChannel(org, org.owner, {}, name);
    const bytes = `in a topic ${Math.random()}`;
    const url = await uploadFile(org, org.owner, "topic.txt", bytes);
    await toChannel(org.owner, channel, link(url), "going");
    await toChannel(org.owner, channel, `and ${link(url)}`, "going");
    expect(ok(await org.owner.api.post(`/streams/${channel}/delete_topic`, { topic_name: "going" })).complete).toBe(true);
    expect(await attachmentAt(org.owner, url)).toBeUndefined();
    expect(existsSync(storedPath(sha256(bytes)))).toBe(false);
  });
});

describe("attachment events, to the owner alone", () => {
  test("add, update with the linking messages, remove; upload_space_used each time", async () => {
    const queue = (person: Person) => person.api.post("/register", { event_types: JSON.stringify(["attachment"]) });
    const [mine, theirs] = [ok(await queue(org.member)).queue_id, ok(await queue(org.member2)).queue_id];
    const bytes = "evented";
    const url = await uploadFile(org, org.member, "evented.txt", bytes);
    const sent = await dm(org.member, [org.member2], link(url));
    const id = await idOf(org.member, url);
    ok(await org.member.api.delete(`/attachments/${id}`));
    const events = (await pending(org.member, mine)).filter((event: Event) => event.type === "attachment");
    const attachment = { id, name: "evented.txt", path_id: url.slice("/user_uploads/".length), size: bytes.length, create_time: expect.any(Number) };
    expect(events).toEqual([
      { id: expect.any(Number), type: "attachment", op: "add", attachment: { ...attachment, messages: [] }, upload_space_used: expect.any(Number) },
      { id: expect.any(Number), type: "attachment", op: "update", attachment: { ...attachment, messages: [{ id: sent.id, date_sent: expect.any(Number) }] }, upload_space_used: expect.any(Number) },
      { id: expect.any(Number), type: "attachment", op: "remove", attachment: { id }, upload_space_used: spaceUsed() },
    ]);
    expect(events[1]!.upload_space_used - events[2]!.upload_space_used).toBe(bytes.length);
    expect((await pending(org.member2, theirs)).filter((event: Event) => event.type === "attachment")).toEqual([]);
  });
});
