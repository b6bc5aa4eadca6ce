import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, login, ok, seedOrg, type Org } from "../helpers/seed";
import { runParley } from "../helpers/server";
import { databaseUrlOf } from "../helpers/testDatabase";
import { SEED_TIMEOUT_MS, pendingOf, register } from "../events/support";

/**
 * Invitations on a server with no mail server configured: the answer and `parley invite` hand
 * over the links; and expiry, with a default validity of three seconds
 * (PARLEY_INVITATION_LINK_VALIDITY_MINUTES=0.05) and a sweep every second.
 */

let org: Org;

beforeAll(async () => {
  org = await seedOrg({ env: { PARLEY_INVITATION_LINK_VALIDITY_MINUTES: "0.05", PARLEY_INVITE_EXPIRY_SWEEP_SECONDS: "1" } });
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

/** `parley ARGS` on the server's data, as its operator would run it: with its database's URL when that is PostgreSQL. */
const parley = (args: string[]) => {
  const url = databaseUrlOf(org.server.dataDir);
  return runParley(args, { env: url === undefined ? {} : { PARLEY_DATABASE_URL: url } });
};
const local = (link: string) => `${org.server.url}${new URL(link).pathname}`;
const join = async (link: string, form: Record<string, string>) => {
  const response = await fetch(local(link), { method: "POST", body: new URLSearchParams(form), redirect: "manual" });
  return { status: response.status, page: await response.text() };
};

describe("without a mail server", () => {
  test("POST /invites answers the links, which work; a partial failure carries the links it made", async () => {
    const answer = ok(await org.member.api.post("/invites", { invitee_emails: "handed@example.com", stream_ids: [], invite_expires_in_minutes: 60 }));
    expect(Object.keys(answer.invite_links)).toEqual(["handed@example.com"]);
    expect((await join(answer.invite_links["handed@example.com"], { full_name: "Hand Ed", password: "handed-password" })).status).toBe(303);
    await login(org.anon, "handed@example.com", "handed-password");

    const partial = await org.member.api.post("/invites", { invitee_emails: `handed@example.com, other@example.com`, stream_ids: [], invite_expires_in_minutes: 60 });
    expectError(partial, "INVITATION_FAILED");
    expect(Object.keys(partial.body.invite_links)).toEqual(["other@example.com"]);
  });

  test("parley invite prints a working link while the server runs", () => {
    const run = parley(["invite", "--data-dir", org.server.dataDir, "--email", "cli@example.com", "--as", "guest", "--expires-in-minutes", "60"]);
    expect(run.exitCode).toBe(0);
    const link = /^cli@example\.com\t(\S+)$/m.exec(run.stdout)![1];
    expect(run.stdout).toContain("No mail server is configured");
    return (async () => {
      expect((await join(link, { full_name: "Cli Guest", password: "cli-password" })).status).toBe(303);
      const guest = await login(org.anon, "cli@example.com", "cli-password");
      expect(ok(await guest.api.get("/users/me")).role).toBe(600);
      const again = parley(["invite", "--data-dir", org.server.dataDir, "--email", "cli@example.com"]);
      expect(again.exitCode).toBe(1);
      expect(again.stderr).toContain("Already has an account.");
    })();
  });
});

describe("expiry", () => {
  test("an invitation past its validity is swept, told to its managers, and its link says it expired; null never expires", async () => {
    const { admin, member } = org;
    const watch = await register(admin, { event_types: ["invites_changed"] });
    const expiring = ok(await member.api.post("/invites", { invitee_emails: "late@example.com", stream_ids: [] })).invite_links["late@example.com"];
    const lasting = ok(await member.api.post("/invites", { invitee_emails: "forever@example.com", stream_ids: [], invite_expires_in_minutes: null })).invite_links["forever@example.com"];
    const { invite_link } = ok(await admin.api.post("/invites/multiuse", {}));
    const listed = ok(await admin.api.get("/invites")).invites;
    const expiringId = listed.find((invite: any) => invite.email === "late@example.com").id;
    expect(listed.find((invite: any) => invite.email === "forever@example.com").expiry_date).toBeNull();
    expect((await pendingOf(admin, watch.queue_id, ["invites_changed"])).length).toBe(3);

    await Bun.sleep(4_500);
    const after = ok(await admin.api.get("/invites")).invites;
    const shown = after.map((invite: any) => invite.email ?? invite.link_url);
    expect(shown).toContain("forever@example.com");
    expect(shown).not.toContain("late@example.com");
    expect(shown).not.toContain(invite_link);
    // The sweep told the administrators (one event per sweep that expired anything).
    expect((await pendingOf(admin, watch.queue_id, ["invites_changed"])).length).toBeGreaterThan(3);

    for (const link of [expiring, invite_link]) {
      const page = await fetch(local(link));
      expect(page.status).toBe(410);
      expect(await page.text()).toContain("expired");
    }
    const refused = await join(expiring, { full_name: "Late Comer", password: "late-password" });
    expect(refused.status).toBe(410);
    expect(refused.page).toContain("expired");
    expectError(await org.anon.post("/fetch_api_key", { username: "late@example.com", password: "late-password" }), "AUTHENTICATION_FAILED", 401);
    expect((await member.api.delete(`/invites/${expiringId}`)).body.msg).toBe("No such invitation");
    expect((await fetch(local(lasting))).status).toBe(200);
  });
});
