import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "../helpers/client";
import { editServerDatabase } from "../helpers/inProcess";
import { OWNER, createPerson, expectError, login, ok, startInitializedServer, type Person } from "../helpers/seed";
import type { TestServer } from "../helpers/server";

/** The conventions every endpoint shares (spec "Conventions", 7, 9), exercised on real endpoints. */

let server: TestServer;
let anon: ApiClient;
let owner: Person;
let member: Person;

beforeAll(async () => {
  server = await startInitializedServer();
  anon = new ApiClient(server.url);
  owner = await login(anon, OWNER.email, OWNER.password);
  member = await createPerson(owner, anon, "Mel Member");
});
afterAll(() => server.dispose());

interface RawResponse {
  status: number;
  body: any;
}

/** A request built by hand, for bodies the ApiClient would never send. Insists on a JSON answer. */
async function send(method: string, path: string, init: { body?: BodyInit; headers?: Record<string, string>; as?: Person | null } = {}): Promise<RawResponse> {
  const person = init.as === undefined ? owner : init.as;
  const authorization: Record<string, string> = person ? { authorization: `Basic ${Buffer.from(`${person.email}:${person.apiKey}`).toString("base64")}` } : {};
  const response = await fetch(new URL(path, server.url), { method, body: init.body, headers: { ...authorization, ...init.headers } });
  const text = await response.text();
  expect(response.headers.get("content-type")).toStartWith("application/json");
  expect(text).not.toMatch(/<html|<!doctype/i);
  return { status: response.status, body: JSON.parse(text) };
}

const FORM = { "content-type": "application/x-www-form-urlencoded" };

async function fullNameOf(person: Person): Promise<string> {
  return ok(await owner.api.get(`/users/${person.id}`)).user.full_name;
}

async function memberCount(): Promise<number> {
  return ok(await owner.api.get("/users")).members.length;
}

/** The request log is flushed on a short timer; wait for the line to show up after `since`. */
async function logLine(pattern: RegExp, since = 0): Promise<string | undefined> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const line = server.output.slice(since).split("\n").find((candidate) => pattern.test(candidate));
    if (line) return line;
    await Bun.sleep(20);
  }
}

describe("where parameters come from", () => {
  test("GET reads them from the query string", async () => {
    ok(await owner.api.get("/users", { client_gravatar: "false" }));
    const refused = await owner.api.get("/users", { client_gravatar: "maybe" });
    expectError(refused, "BAD_REQUEST");
    expect(refused.body.var_name).toBe("client_gravatar");
  });

  test("an urlencoded body is read", async () => {
    ok(await owner.api.patch(`/users/${member.id}`, { full_name: "Mel Urlencoded" }));
    expect(await fullNameOf(member)).toBe("Mel Urlencoded");
  });

  test("a multipart body is read, and JSON-looking values stay the strings that were sent", async () => {
    for (const name of ["[1]", "{}", "12345", "true"]) {
      ok(await owner.api.request("PATCH", `/users/${member.id}`, { full_name: name }, { multipart: true }));
      expect(await fullNameOf(member)).toBe(name);
    }
  });

  test("the query string counts on POST and PATCH too, and the body wins when both carry a parameter", async () => {
    ok(await owner.api.patch(`/users/${member.id}?full_name=Mel%20Query`));
    expect(await fullNameOf(member)).toBe("Mel Query");
    ok(await owner.api.patch(`/users/${member.id}?full_name=From%20Query`, { full_name: "From Body" }));
    expect(await fullNameOf(member)).toBe("From Body");
  });

  test("a path parameter repeated in the body (as python-zulip-api sends it) is neither ignored nor a problem", async () => {
    for (const multipart of [false, true]) {
      const body = ok(await owner.api.request("PATCH", `/users/${member.id}`, { user_id: member.id, full_name: `Mel Repeated ${multipart}` }, { multipart }));
      expect(body).not.toHaveProperty("ignored_parameters_unsupported");
      expect(await fullNameOf(member)).toBe(`Mel Repeated ${multipart}`);
    }
  });
});

describe("JSON parameters on a real endpoint (subscribing creates channels)", () => {
  const subscribedNames = async () => ok(await owner.api.get("/users/me/subscriptions")).subscriptions.map((channel: { name: string }) => channel.name);

  test("a JSON list is read whether or not it has spaces, urlencoded or multipart", async () => {
    ok(await owner.api.post("/users/me/subscriptions", { subscriptions: '[{"name": "json spaced"}, {"name":"json tight"}]' }));
    ok(await owner.api.post("/users/me/subscriptions", { subscriptions: '[ {"name" : "json multipart"} ]' }, { multipart: true }));
    expect(await subscribedNames()).toEqual(expect.arrayContaining(["json spaced", "json tight", "json multipart"]));
  });

  test("malformed JSON is a 400 naming the parameter, and changes nothing", async () => {
    const response = await owner.api.post("/users/me/subscriptions", { subscriptions: '[{"name": "never created"}' });
    expectError(response, "BAD_REQUEST");
    expect(response.body).toMatchObject({ var_name: "subscriptions", msg: "Argument 'subscriptions' is not valid JSON." });
    expect(await subscribedNames()).not.toContain("never created");
  });

  test("valid JSON of the wrong shape is a 400 saying where inside the parameter", async () => {
    const response = await owner.api.post("/users/me/subscriptions", { subscriptions: '[{"title": "never created"}]' });
    expectError(response, "BAD_REQUEST");
    expect(response.body).toMatchObject({ var_name: "subscriptions", msg: "'subscriptions[0][name]' is missing" });
    expect(await subscribedNames()).not.toContain("never created");
  });
});

describe("ignored_parameters_unsupported", () => {
  test("lists exactly the parameters a GET endpoint does not know", async () => {
    const body = ok(await owner.api.get("/users/me", { foo: "1", bar: "[1, 2]" }));
    expect(body.ignored_parameters_unsupported.sort()).toEqual(["bar", "foo"]);
  });

  test("lists exactly the unknown ones among known ones, from body and query string alike", async () => {
    const body = ok(await owner.api.patch(`/users/${member.id}?from_query=1`, { full_name: "Mel Ignored", from_body: "x" }));
    expect(body.ignored_parameters_unsupported.sort()).toEqual(["from_body", "from_query"]);
    expect(await fullNameOf(member)).toBe("Mel Ignored");
  });

  test("is absent when every parameter was used, and on unauthenticated endpoints works the same", async () => {
    expect(ok(await owner.api.get("/users", { client_gravatar: "true" }))).not.toHaveProperty("ignored_parameters_unsupported");
    expect(ok(await anon.get("/server_settings", { platform: "web" })).ignored_parameters_unsupported).toEqual(["platform"]);
  });
});

describe("bad parameters are a 400 BAD_REQUEST naming the parameter, and change nothing", () => {
  test("a wrong type in the body", async () => {
    const response = await owner.api.patch(`/users/${member.id}`, { role: "abc" });
    expectError(response, "BAD_REQUEST");
    expect(response.body.var_name).toBe("role");
    expect(response.body.msg).toContain("role");
    expect(ok(await owner.api.get(`/users/${member.id}`)).user.role).toBe(400);
  });

  test("a wrong type in the path", async () => {
    const response = await owner.api.patch("/users/abc", { full_name: "Nobody" });
    expectError(response, "BAD_REQUEST");
    expect(response.body.var_name).toBe("user_id");
    expect(response.body.msg).toContain("user_id");
  });

  test("a missing required parameter", async () => {
    const before = await memberCount();
    const response = await owner.api.post("/users", { email: "missing@example.com", password: "secret-password" });
    expectError(response, "BAD_REQUEST");
    expect(response.body).toMatchObject({ var_name: "full_name", msg: "Missing 'full_name' argument" });
    expect(await memberCount()).toBe(before);
  });

  test("a 1 MB string", async () => {
    const huge = "x".repeat(1024 * 1024);
    const [before, nameBefore] = [await memberCount(), await fullNameOf(member)];
    const created = await owner.api.post("/users", { email: "huge@example.com", password: "secret-password", full_name: huge });
    expectError(created, "BAD_REQUEST");
    expect(created.body.var_name).toBe("full_name");
    expect(created.body.msg.length).toBeLessThan(200);
    expect(await memberCount()).toBe(before);

    const renamed = await owner.api.request("PATCH", `/users/${member.id}`, { full_name: huge }, { multipart: true });
    expectError(renamed, "BAD_REQUEST");
    expect(renamed.body.var_name).toBe("full_name");
    expect(await fullNameOf(member)).toBe(nameBefore);
  });
});

describe("malformed requests are answered in JSON", () => {
  test("a multipart body that does not parse is a 400", async () => {
    const response = await send("PATCH", `/api/v1/users/${member.id}`, { body: "--nope\r\nnot a part", headers: { "content-type": "multipart/form-data; boundary=b0undary" } });
    expectError(response, "BAD_REQUEST");
  });

  test("a JSON body with a syntax error is a 400", async () => {
    const response = await send("POST", "/api/v1/users", { body: '{"email": "x@example.com",', headers: { "content-type": "application/json" } });
    expectError(response, "BAD_REQUEST");
  });

  test("an unknown route is a JSON 404, inside and outside /api/v1", async () => {
    for (const path of ["/api/v1/no_such_endpoint", "/api/v2/users/me", "/no/such/page"]) {
      expectError(await send("GET", path), "NOT_FOUND", 404);
    }
  });

  test("a known path with the wrong method is a JSON 4xx", async () => {
    for (const [method, path] of [["DELETE", "/api/v1/server_settings"], ["PUT", "/api/v1/users/me"], ["POST", "/api/v1/users/me"]]) {
      const response = await send(method, path);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(response.body.result).toBe("error");
    }
  });

  test("an internal failure is a JSON 500 without internals, and the log has the details", async () => {
    // A damaged row is the honest way to make the server itself fail: the code path that reads
    // a user's settings meets JSON it cannot parse. PostgreSQL's jsonb holds only valid JSON:
    // there the damage is a join time past any date, which the profile cannot show.
    const victim = await createPerson(owner, anon, "Damaged Row");
    editServerDatabase(
      server,
      { sqlite: "UPDATE users SET settings = '{not json' WHERE id = ?", postgres: "UPDATE users SET date_joined = 9223372036854775807 WHERE id = ?" },
      victim.id,
    );
    const response = await send("GET", "/api/v1/users/me", { as: victim });
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ result: "error", msg: "Internal server error", code: "INTERNAL_SERVER_ERROR" });
    expect(await logLine(/ERROR GET \/api\/v1\/users\/me failed/)).toBeDefined();
    // Everyone else is unaffected.
    ok(await owner.api.get("/users/me"));
  });
});

describe("the request log", () => {
  test("has method, path, status, duration and user for successes and every kind of refusal", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const since = server.output.length;
    await send("GET", `/api/v1/missing-${tag}`);
    await send("GET", `/api/v1/users/me?tag=${tag}`, { as: null });
    await send("PATCH", `/api/v1/users/${member.id}?tag=${tag}`, { body: "role=abc", headers: FORM });
    await send("PATCH", `/api/v1/users/${member.id}?tag=${tag}`, { body: "full_name=Mel%20Logged", headers: FORM });
    expect(await logLine(new RegExp(`INFO GET /api/v1/missing-${tag} 404 \\d+\\.\\dms user=-$`), since)).toBeDefined();
    expect(await logLine(/INFO GET \/api\/v1\/users\/me 401 \d+\.\dms user=-$/, since)).toBeDefined();
    expect(await logLine(new RegExp(`INFO PATCH /api/v1/users/${member.id} 400 \\d+\\.\\dms user=`), since)).toBeDefined();
    expect(await logLine(new RegExp(`INFO PATCH /api/v1/users/${member.id} 200 \\d+\\.\\dms user=${owner.id}$`), since)).toBeDefined();
  });

  test("never contains the query string, where a client may have put a secret", async () => {
    const tag = crypto.randomUUID();
    const since = server.output.length;
    await send("GET", `/api/v1/users/me?api_key=${tag}`);
    expect(await logLine(/GET \/api\/v1\/users\/me 200/, since)).toBeDefined();
    expect(server.output).not.toContain(tag);
  });
});
