import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiClient } from "../helpers/client";
import { OWNER, createPerson, login, ok, startInitializedServer, type Person } from "../helpers/seed";
import type { TestServer } from "../helpers/server";

/** Existing Zulip clients, unmodified, against Parley. */

const SESSION_SCRIPT = join(import.meta.dir, "zulip-js-session.mjs");
const NODE = Bun.which("node");

let server: TestServer;
let anon: ApiClient;
let owner: Person;
let member: Person;
let scratch: string;

beforeAll(async () => {
  if (!NODE) throw new Error("These tests run zulip-js under Node, and no `node` is on the PATH.");
  server = await startInitializedServer();
  anon = new ApiClient(server.url);
  owner = await login(anon, OWNER.email, OWNER.password);
  member = await createPerson(owner, anon, "Mel Member");
  scratch = mkdtempSync(join(tmpdir(), "parley-clients-"));
});
afterAll(async () => {
  await server.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

interface ZulipJsCall {
  call: string;
  args?: unknown[];
}

/** One zulip-js session: its config, then each call in turn; returns the API key it used and each answer. */
async function zulipJs(config: Record<string, string>, calls: ZulipJsCall[]): Promise<{ apiKey: string; results: any[] }> {
  const child = Bun.spawn([NODE!, SESSION_SCRIPT, JSON.stringify({ config, calls })], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (exitCode !== 0) throw new Error(`zulip-js session failed (exit ${exitCode}):\n${stderr}`);
  return JSON.parse(stdout);
}

const asOwner = () => ({ username: owner.email, apiKey: owner.apiKey, realm: server.url });

describe("zulip-js (multipart POST bodies, query strings for everything else)", () => {
  test("logs in with e-mail and password, then reads its own profile", async () => {
    const session = await zulipJs({ username: OWNER.email, password: OWNER.password, realm: server.url }, [{ call: "users.me.getProfile" }]);
    expect(session.apiKey).toBe(owner.apiKey);
    expect(session.results[0]).toMatchObject({ result: "success", user_id: owner.id, email: OWNER.email, role: 100 });
  });

  test("reads the server settings", async () => {
    const { results } = await zulipJs(asOwner(), [{ call: "server.settings" }]);
    expect(results[0]).toMatchObject({ result: "success", zulip_version: expect.any(String), zulip_feature_level: expect.any(Number) });
  });

  test("creates a user, lists users, and renames one", async () => {
    const { results } = await zulipJs(asOwner(), [
      { call: "users.create", args: [{ email: "zoe@example.com", password: "zoe-password", full_name: "Zoe [zulip-js]" }] },
      { call: "users.retrieve", args: [{ client_gravatar: true }] },
      { call: "callEndpoint", args: [`/users/${member.id}`, "PATCH", { full_name: "Mel Renamed" }] },
    ]);
    const [created, listed, renamed] = results;
    // Not toMatchObject with expect.any: Bun's overwrites the matched value (oven-sh/bun#3521).
    expect(created).toEqual({ result: "success", msg: "", user_id: expect.any(Number) });
    expect(listed.result).toBe("success");
    expect(listed.members.map((person: { email: string }) => person.email)).toContain("zoe@example.com");
    expect(renamed).toEqual({ result: "success", msg: "" });
    expect(ok(await owner.api.get(`/users/${created.user_id}`)).user.full_name).toBe("Zoe [zulip-js]");
    expect(ok(await owner.api.get(`/users/${member.id}`)).user.full_name).toBe("Mel Renamed");
    await login(anon, "zoe@example.com", "zoe-password");
  });

  test("sends a direct message: a JSON list and JSON-looking content in one multipart body", async () => {
    const { results } = await zulipJs(asOwner(), [{ call: "messages.send", args: [{ type: "direct", to: [member.id], content: '[1] {"a": 1}' }] }]);
    expect(results[0]).toEqual({ result: "success", msg: "", id: expect.any(Number) });
    expect(ok(await member.api.get(`/messages/${results[0].id}`)).raw_content).toBe('[1] {"a": 1}');
  });

  test("topics, edit history, render, custom emoji, alert words and presence through its own methods", async () => {
    ok(await owner.api.post("/users/me/subscriptions", { subscriptions: [{ name: "js corner" }] }));
    const id = ok(await owner.api.post("/messages", { type: "stream", to: "js corner", topic: "first", content: "hello" })).id;
    ok(await owner.api.patch(`/messages/${id}`, { content: "hello again" }));
    const channel = ok(await owner.api.get("/get_stream_id", { stream: "js corner" })).stream_id;
    const { results } = await zulipJs(asOwner(), [
      { call: "streams.topics.retrieve", args: [{ stream_id: channel }] },
      { call: "messages.getHistoryById", args: [{ message_id: id }] },
      { call: "messages.render", args: ["**bold** :smile:"] },
      { call: "emojis.retrieve" },
      { call: "users.me.alertWords.retrieve" },
      { call: "callEndpoint", args: ["/users/me/presence", "POST", { status: "active" }] },
    ]);
    const [topics, history, rendered, emoji, alertWords, presence] = results;
    // Newest first: the channel's announcement came before.
    expect(topics.topics[0]).toEqual({ name: "first", max_id: id });
    expect(history.message_history.map((snapshot: { content: string }) => snapshot.content)).toEqual(["hello", "hello again"]);
    expect(rendered.rendered).toContain("<strong>bold</strong>");
    expect(emoji).toEqual({ result: "success", msg: "", emoji: {} });
    expect(alertWords).toEqual({ result: "success", msg: "", alert_words: [] });
    expect(presence).toMatchObject({ result: "success", presences: expect.any(Object) });
  });

  test("gets errors as JSON it can read, never a page it cannot", async () => {
    const wrongKey = await zulipJs({ ...asOwner(), apiKey: "not-the-key" }, [{ call: "users.me.getProfile" }]);
    expect(wrongKey.results[0]).toMatchObject({ result: "error", code: "INVALID_API_KEY" });
    const { results } = await zulipJs(asOwner(), [
      { call: "callEndpoint", args: ["/no_such_endpoint", "GET", {}] },
      { call: "users.create", args: [{ email: "no-name@example.com", password: "pw-pw-pw" }] },
    ]);
    expect(results[0]).toMatchObject({ result: "error", code: "NOT_FOUND" });
    expect(results[1]).toMatchObject({ result: "error", code: "BAD_REQUEST", var_name: "full_name" });
  });

  test("runs from the zuliprc Parley hands a bot's owner", async () => {
    const bot = ok(await member.api.post("/bots", { full_name: "Zulip JS Bot", short_name: "zulipjs" }));
    const response = await fetch(`${server.url}/api/v1/bots/${bot.user_id}/zuliprc`, { headers: { authorization: `Basic ${btoa(`${member.email}:${member.apiKey}`)}` } });
    expect(response.status).toBe(200);
    // The file names the organization's public URL; this test server listens elsewhere.
    const zuliprc = (await response.text()).replace(/^site=.*$/m, `site=${server.url}`);
    const path = join(scratch, "zuliprc");
    writeFileSync(path, zuliprc);
    const { results } = await zulipJs({ zuliprc: path }, [{ call: "users.me.getProfile" }]);
    expect(results[0]).toMatchObject({ result: "success", user_id: bot.user_id, is_bot: true });
  });
});

describe("python-zulip-api habits, reproduced by hand", () => {
  /** A call as python-zulip-api makes it: its User-Agent, GET parameters in the query string, the rest urlencoded in the body. */
  async function python(method: string, path: string, params: Record<string, string> = {}) {
    const url = new URL(`/api/v1${path}`, server.url);
    if (method === "GET") for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    const headers = { "user-agent": "ZulipPython/0.9.0 (Linux; Debian 12)", authorization: `Basic ${btoa(`${owner.email}:${owner.apiKey}`)}` };
    const response = await fetch(url, { method, headers, body: method === "GET" ? undefined : new URLSearchParams(params) });
    return { status: response.status, body: await response.json() };
  }

  test("GET /server_settings carries zulip_version, which it reads to decide what the server supports", async () => {
    expect(await python("GET", "/server_settings")).toMatchObject({ status: 200, body: { result: "success", zulip_version: expect.any(String), zulip_feature_level: expect.any(Number) } });
  });

  // It json.dumps every value that is not a string: True becomes "true", lists "[1, 2]".
  test("json.dumps'd values, and the path parameter repeated in the body", async () => {
    expect((await python("GET", "/users", { client_gravatar: "true" })).status).toBe(200);
    expect((await python("PATCH", `/users/${member.id}`, { user_id: String(member.id), full_name: "Mel Pythonic" })).body).toEqual({ result: "success", msg: "" });
    expect(ok(await owner.api.get(`/users/${member.id}`)).user.full_name).toBe("Mel Pythonic");
  });

  test("JSON lists with spaces, and a DELETE carrying its parameters in the body", async () => {
    expect((await python("POST", "/register", { event_types: '["message", "subscription"]' })).body).toMatchObject({ result: "success", queue_id: expect.any(String) });
    expect((await python("POST", "/messages", { type: "private", to: `[${member.id}, ${owner.id}]`, content: "from python" })).body).toEqual({ result: "success", msg: "", id: expect.any(Number) });
    expect((await python("POST", "/users/me/subscriptions", { subscriptions: '[{"name": "python club"}]' })).body).toMatchObject({ result: "success", subscribed: { [owner.id]: ["python club"] } });
    expect((await python("DELETE", "/users/me/subscriptions", { subscriptions: '["python club"]' })).body).toMatchObject({ result: "success", removed: ["python club"] });
  });

  test("client mistakes are 4xx, never 5xx (it retries a 5xx ten times)", async () => {
    const basic = (credentials: string) => ({ authorization: `Basic ${btoa(credentials)}` });
    const ownerAuth = basic(`${owner.email}:${owner.apiKey}`);
    const form = { ...ownerAuth, "content-type": "application/x-www-form-urlencoded" };
    const mistakes: [string, string, RequestInit][] = [
      ["no credentials", "/users/me", {}],
      ["wrong key", "/users/me", { headers: basic(`${owner.email}:wrong`) }],
      ["unknown e-mail", "/users/me", { headers: basic("nobody@example.com:key") }],
      ["not Basic", "/users/me", { headers: { authorization: "Bearer abc" } }],
      ["garbage Basic", "/users/me", { headers: { authorization: "Basic %%%" } }],
      ["unknown endpoint", "/no_such_endpoint", { headers: ownerAuth }],
      ["wrong method", "/users/me", { method: "PUT", headers: ownerAuth }],
      ["wrong type", `/users/${member.id}`, { method: "PATCH", headers: form, body: "role=admin" }],
      ["unknown role", `/users/${member.id}`, { method: "PATCH", headers: form, body: "role=12345" }],
      ["unknown user", "/users/987654", { method: "PATCH", headers: form, body: "full_name=Ghost" }],
      ["id not a number", "/users/abc", { method: "PATCH", headers: form, body: "full_name=Ghost" }],
      ["missing parameter", "/users", { method: "POST", headers: form, body: "email=a%40example.com" }],
      ["taken e-mail", "/users", { method: "POST", headers: form, body: `email=${encodeURIComponent(member.email)}&password=pw-pw-pw&full_name=Twin` }],
      ["huge parameter", "/users", { method: "POST", headers: form, body: `email=b%40example.com&password=pw&full_name=${"x".repeat(200_000)}` }],
      ["broken JSON body", "/users", { method: "POST", headers: { ...ownerAuth, "content-type": "application/json" }, body: "{" }],
      ["broken multipart", "/users", { method: "POST", headers: { ...ownerAuth, "content-type": "multipart/form-data; boundary=x" }, body: "garbage" }],
      ["text body", "/users", { method: "POST", headers: { ...ownerAuth, "content-type": "text/plain" }, body: "email=c@example.com" }],
      ["malformed JSON list", "/users/me/subscriptions", { method: "POST", headers: form, body: "subscriptions=%5B%7B%22name" }],
      ["list of the wrong things", "/messages", { method: "POST", headers: form, body: "type=private&to=%5Btrue%5D&content=hi" }],
      ["message to nobody", "/messages", { method: "POST", headers: form, body: "type=private&to=%5B987654%5D&content=hi" }],
      ["unknown event queue", "/events?queue_id=no-such-queue&last_event_id=-1", { headers: ownerAuth }],
      ["bad login", "/fetch_api_key", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `username=${encodeURIComponent(OWNER.email)}&password=wrong` }],
    ];
    for (const [mistake, path, init] of mistakes) {
      const response = await fetch(`${server.url}/api/v1${path}`, init);
      const body = await response.json();
      expect({ mistake, is4xx: response.status >= 400 && response.status < 500, result: body.result }).toEqual({ mistake, is4xx: true, result: "error" });
    }
  });
});
