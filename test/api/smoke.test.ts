import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "../helpers/client";
import { OWNER, expectError, login, ok, startInitializedServer } from "../helpers/seed";
import type { TestServer } from "../helpers/server";

let server: TestServer;
let anon: ApiClient;

beforeAll(async () => {
  server = await startInitializedServer();
  anon = new ApiClient(server.url);
});
afterAll(() => server.dispose());

describe("a freshly initialized server", () => {
  test("answers server_settings without authentication, with both version spellings", async () => {
    const body = ok(await anon.get("/server_settings"));
    expect(body.zulip_version).toMatch(/^parley-\d+\.\d+\.\d+$/);
    expect(body.svc_version).toBe(body.zulip_version);
    expect(body.zulip_feature_level).toBeGreaterThanOrEqual(362);
    expect(body.realm_name).toBe("Test Org");
  });

  test("lets the owner log in and see themselves", async () => {
    const owner = await login(anon, OWNER.email, OWNER.password);
    const me = ok(await owner.api.get("/users/me"));
    expect(me).toMatchObject({ user_id: owner.id, email: OWNER.email, role: 100, is_owner: true, is_admin: true, full_name: OWNER.fullName });
  });

  test("refuses a wrong API key with 401 and a challenge", async () => {
    const response = await anon.as(OWNER.email, "wrong").get("/users/me");
    expectError(response, "INVALID_API_KEY", 401);
    expect(response.headers.get("www-authenticate")).toContain("Basic");
  });
});
