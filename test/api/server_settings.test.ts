import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import pkg from "../../package.json";
import { ApiClient } from "../helpers/client";
import { ok } from "../helpers/seed";
import { TestServer } from "../helpers/server";

const COMMON_FIELDS = [
  "authentication_methods",
  "email_auth_enabled",
  "external_authentication_methods",
  "is_incompatible",
  "msg",
  "push_notifications_enabled",
  "require_email_format_usernames",
  "result",
  "svc_feature_level",
  "svc_merge_base",
  "svc_version",
  // Parley's: the VAPID key browsers subscribe to Web Push with (docs/API.md).
  "web_push_public_key",
  "zulip_feature_level",
  "zulip_merge_base",
  "zulip_version",
];
const REALM_FIELDS = ["realm_description", "realm_icon", "realm_name", "realm_uri", "realm_url", "realm_web_public_access_enabled"];

let server: TestServer;
let anon: ApiClient;

// Starts with no organization, so the same server shows both states once the setup page has run.
beforeAll(async () => {
  server = await TestServer.start();
  anon = new ApiClient(server.url);
});
afterAll(() => server.dispose());

describe("GET /server_settings", () => {
  test("before setup, describes the server without any organization fields", async () => {
    const body = ok(await anon.get("/server_settings"));
    expect(Object.keys(body).sort()).toEqual(COMMON_FIELDS);
  });

  test("reports version and feature level under both spellings", async () => {
    const body = ok(await anon.get("/server_settings"));
    expect(body.svc_version).toBe(`parley-${pkg.version}`);
    expect(body.svc_version).toMatch(/^parley-\d+\.\d+\.\d+$/);
    expect(body.svc_feature_level).toBeGreaterThanOrEqual(362);
    expect(typeof body.svc_merge_base).toBe("string");
    expect(body.zulip_version).toBe(body.svc_version);
    expect(body.zulip_feature_level).toBe(body.svc_feature_level);
    expect(body.zulip_merge_base).toBe(body.svc_merge_base);
  });

  test("offers password login only", async () => {
    const body = ok(await anon.get("/server_settings"));
    expect(body.authentication_methods).toMatchObject({ password: true, email: true, dev: false, ldap: false, github: false, google: false, saml: false });
    expect(Object.entries(body.authentication_methods).filter(([, enabled]) => enabled).map(([name]) => name).sort()).toEqual(["email", "password"]);
    expect(body.external_authentication_methods).toEqual([]);
    expect(body).toMatchObject({ email_auth_enabled: true, require_email_format_usernames: true, push_notifications_enabled: false, is_incompatible: false });
  });

  test("once set up, names the organization and the URL it was set up at", async () => {
    const setup = await fetch(`${server.url}/setup`, {
      method: "POST",
      body: new URLSearchParams({ setup_code: server.setupCode!, org_name: "Settings Org", full_name: "Sam Setup", email: "sam@example.com", password: "sam-password" }),
    });
    expect(setup.status).toBe(200);
    const body = ok(await anon.get("/server_settings"));
    expect(Object.keys(body).sort()).toEqual([...COMMON_FIELDS, ...REALM_FIELDS].sort());
    expect(body).toMatchObject({ realm_name: "Settings Org", realm_url: server.url, realm_uri: server.url, realm_description: "", realm_web_public_access_enabled: false });
    expect(body.realm_icon).toStartWith(server.url);
    // The icon it names is there: a PNG (what the Zulip apps show for the organization).
    const icon = await fetch(body.realm_icon);
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toBe("image/png");
    expect([...new Uint8Array(await icon.arrayBuffer()).slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  });

  test("needs no credentials, and bad ones do not get in its way", async () => {
    const body = ok(await anon.as("nobody@example.com", "wrong-key").get("/server_settings"));
    expect(body.realm_name).toBe("Settings Org");
  });

  test("lists parameters it does not know as ignored", async () => {
    const body = ok(await anon.get("/server_settings", { client: "test", verbose: true }));
    expect(body.ignored_parameters_unsupported).toEqual(["client", "verbose"]);
  });
});
