import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, setRealmSetting, systemGroupId } from "../helpers/channels";
import { expectError, login, ok, seedOrg, type Org, type Person } from "../helpers/seed";
import { SmtpSink } from "../helpers/smtpSink";
import { SEED_TIMEOUT_MS, pendingOf, register } from "../events/support";

/**
 * Invitations over HTTP with a real SMTP sink (spec 4.8, 4.12, 2.10, 3): the mail, the link it
 * carries followed with fetch (page, form, then fetch_api_key), channels, groups and role of
 * the new account, the referrer's notice, every refusal leaving nothing behind, revoke, resend.
 */

let org: Org;
let sink: SmtpSink;

beforeAll(async () => {
  sink = await SmtpSink.start();
  org = await seedOrg({ env: sink.env({ PARLEY_OUTBOX_SWEEP_SECONDS: "1" }) });
}, SEED_TIMEOUT_MS);
afterAll(async () => {
  org.server.dispose();
  await sink.stop();
});

/** The link as the server wrote it, pointed at the test server (the realm URL is the default one). */
const local = (link: string) => {
  const url = new URL(link);
  return `${org.server.url}${url.pathname}`;
};
const linkIn = (text: string) => /https?:\/\/\S+\/join\/\S+\//.exec(text)![0];

async function join(link: string, form: Record<string, string>) {
  const response = await fetch(local(link), { method: "POST", body: new URLSearchParams(form), redirect: "manual" });
  // Signing up signs the browser in: a session cookie and the way to the person's settings.
  return { status: response.status, page: await response.text(), location: response.headers.get("location"), cookies: response.headers.getSetCookie() };
}

const listAll = async () => ok(await org.admin.api.get("/invites")).invites as any[];

async function mailsTo(address: string, count = 1) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = sink.received.filter((mail) => mail.recipients.includes(address));
    if (found.length >= count) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${address}`);
    await Bun.sleep(50);
  }
}

describe("POST /invites", () => {
  test("a member invites two addresses; each gets a mail whose link signs them up in the named channels, groups and role", async () => {
    const { member, admin, member2 } = org;
    const channel = await createChannel(org, member);
    const [watchAdmin, watchMember, watchOther] = await Promise.all([admin, member, member2].map((person) => register(person, { event_types: ["invites_changed"] })));

    const answer = ok(
      await member.api.post("/invites", {
        invitee_emails: "new.one@example.com,\n New.Two@example.com ",
        stream_ids: [channel],
        group_ids: [],
        invite_as: 600,
        invite_expires_in_minutes: 60,
      }),
    );
    // Mail is configured: no links in the answer, the mail carries them.
    expect(answer).toEqual({ result: "success", msg: "" });
    expect((await pendingOf(admin, watchAdmin.queue_id, ["invites_changed"])).length).toBe(1);
    expect((await pendingOf(member, watchMember.queue_id, ["invites_changed"])).length).toBe(1);
    expect(await pendingOf(member2, watchOther.queue_id, ["invites_changed"])).toEqual([]);

    const listed = (await listAll()).filter((invite) => invite.email?.startsWith("new."));
    expect(listed).toHaveLength(2);
    expect(listed[0]).toEqual({
      id: expect.any(Number),
      invited_by_user_id: member.id,
      invited: expect.any(Number),
      expiry_date: listed[0].invited + 3600,
      invited_as: 600,
      notify_referrer_on_join: true,
      is_multiuse: false,
      email: "new.one@example.com",
    });
    // The member sees their own; someone else sees none of them.
    expect(ok(await member.api.get("/invites")).invites.map((invite: any) => invite.email)).toEqual(["new.one@example.com", "new.two@example.com"]);
    expect(ok(await member2.api.get("/invites")).invites).toEqual([]);

    const [mail] = await mailsTo("new.one@example.com");
    expect(mail.recipients).toEqual(["new.one@example.com"]);
    expect(mail.subject).toBe("Mel Member invited you to Test Org");
    const link = linkIn(mail.text);
    expect((await mailsTo("new.two@example.com"))[0].text).not.toContain(link);

    const page = await fetch(local(link));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("new.one@example.com");
    const watchReferrer = await register(member, { event_types: ["message"] });
    const signedUp = await join(link, { full_name: "Nina New", password: "nina-password" });
    expect(signedUp.status).toBe(303);
    expect(signedUp.location).toBe("/");
    const session = signedUp.cookies.map((cookie) => cookie.split(";")[0]).join("; ");
    expect(session).toContain("parley_session=");
    const signedIn = await (await fetch(`${org.server.url}/api/v1/users/me`, { headers: { cookie: session } })).json();
    expect(signedIn.full_name).toBe("Nina New");

    const nina = await login(org.anon, "new.one@example.com", "nina-password");
    const me = ok(await nina.api.get("/users/me"));
    expect(me.role).toBe(600);
    const subscribed = ok(await nina.api.get("/users/me/subscriptions")).subscriptions.map((sub: any) => sub.stream_id);
    expect(subscribed).toEqual([channel]);
    // The referrer hears from the notification bot.
    const [notice] = await pendingOf(member, watchReferrer.queue_id, ["message"]);
    expect(notice.message.sender_email).toStartWith("notification-bot@");
    expect(notice.message.content).toContain("accepted your invitation to join Test Org");
    // The invitation is spent: the list drops it and the link says so.
    expect((await listAll()).some((invite) => invite.email === "new.one@example.com")).toBe(false);
    const again = await fetch(local(link));
    expect(again.status).toBe(410);
    expect(await again.text()).toContain("already used");
  });

  test("groups, default channels and the role named are given; without notify_referrer_on_join the referrer hears nothing", async () => {
    const { admin } = org;
    const group = ok(await admin.api.post("/user_groups/create", { name: "welcome-group", description: "new people", members: [admin.id] })).group_id;
    const defaultChannel = await createChannel(org, admin);
    ok(await admin.api.post("/default_streams", { stream_id: defaultChannel }));
    const watch = await register(admin, { event_types: ["message"] });
    ok(await admin.api.post("/invites", { invitee_emails: "grouped@example.com", stream_ids: [], group_ids: [group], include_realm_default_subscriptions: true, invite_as: 300, notify_referrer_on_join: false }));
    const link = linkIn((await mailsTo("grouped@example.com"))[0].text);
    expect((await join(link, { full_name: "Gro Uped", password: "grouped-password" })).status).toBe(303);
    const person = await login(org.anon, "grouped@example.com", "grouped-password");
    expect(ok(await person.api.get("/users/me")).role).toBe(300);
    expect(ok(await person.api.get("/users/me/subscriptions")).subscriptions.map((sub: any) => sub.stream_id)).toContain(defaultChannel);
    expect(ok(await admin.api.get(`/user_groups/${group}/members/${person.id}`)).is_user_group_member).toBe(true);
    expect(await pendingOf(admin, watch.queue_id, ["message"])).toEqual([]);
  });

  test("addresses with accounts are skipped, the rest invited: INVITATION_FAILED with the reference's fields", async () => {
    const response = await org.member.api.post("/invites", { invitee_emails: `${org.member2.email}, fresh@example.com`, stream_ids: [] });
    expectError(response, "INVITATION_FAILED");
    expect(response.body).toEqual({
      result: "error",
      code: "INVITATION_FAILED",
      msg: expect.stringContaining("We did send invitations to everyone else"),
      errors: [[org.member2.email, "Already has an account.", false]],
      sent_invitations: true,
      daily_limit_reached: false,
      license_limit_reached: false,
    });
    expect((await listAll()).some((invite) => invite.email === "fresh@example.com")).toBe(true);
    await mailsTo("fresh@example.com");
  });

  test("nobody invitable, or an invalid address: INVITATION_FAILED and nothing sent", async () => {
    const before = (await listAll()).length;
    const mailsBefore = sink.received.length;
    const none = await org.member.api.post("/invites", { invitee_emails: org.member2.email, stream_ids: [] });
    expectError(none, "INVITATION_FAILED");
    expect(none.body.sent_invitations).toBe(false);
    const invalid = await org.member.api.post("/invites", { invitee_emails: "good@example.com, not-an-address", stream_ids: [] });
    expectError(invalid, "INVITATION_FAILED");
    expect(invalid.body.errors).toEqual([["not-an-address", "Invalid address.", false]]);
    expect(invalid.body.sent_invitations).toBe(false);
    expect((await listAll()).length).toBe(before);
    await Bun.sleep(300);
    expect(sink.received.length).toBe(mailsBefore);
  });

  test("each BAD_REQUEST the spec lists, and nothing changes after any of them", async () => {
    const { owner, admin, moderator, member, guest } = org;
    const before = await listAll();
    const refuse = async (person: Person, params: Record<string, unknown>, message: string) => {
      const response = await person.api.post("/invites", { invitee_emails: "someone@example.com", stream_ids: [], ...params });
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe(message);
    };
    await refuse(guest, {}, "Insufficient permission");
    await refuse(admin, { invite_as: 100 }, "Insufficient permission");
    await refuse(moderator, { invite_as: 200 }, "Insufficient permission");
    await refuse(member, { invite_as: 300 }, "Insufficient permission");
    await refuse(member, { invitee_emails: " ,\n " }, "You must specify at least one email address.");
    await refuse(member, { stream_ids: [999_999] }, "Invalid channel ID 999999. No invites were sent.");
    const secret = await createChannel(org, owner, { invite_only: true });
    await refuse(member, { stream_ids: [secret] }, `Invalid channel ID ${secret}. No invites were sent.`);
    expectError(await member.api.post("/invites", { invitee_emails: "x@example.com", stream_ids: [], invite_as: 500 }), "BAD_REQUEST");
    expectError(await member.api.post("/invites", { invitee_emails: "x@example.com", stream_ids: [], invite_expires_in_minutes: 0 }), "BAD_REQUEST");
    expectError(await member.api.post("/invites", { invitee_emails: "x@example.com", stream_ids: [], invite_expires_in_minutes: "soon" }), "BAD_REQUEST");
    expectError(await member.api.post("/invites", { invitee_emails: "x@example.com" }), "BAD_REQUEST");
    expectError(await member.api.post("/invites", { invitee_emails: "x@example.com", stream_ids: [], group_ids: [999_999] }), "BAD_REQUEST");
    expectError(await org.anon.post("/invites", { invitee_emails: "x@example.com", stream_ids: [] }), "UNAUTHORIZED", 401);

    // Who may invite and who may subscribe others are realm settings. The member is subscribed
    // to the channel but does not administer it (its creator would).
    const channel = await createChannel(org, admin, { principals: [admin.id, member.id] });
    setRealmSetting(org.server, "can_add_subscribers_group", systemGroupId(org.server, "role:administrators"));
    await refuse(member, { stream_ids: [channel] }, "You do not have permission to subscribe other users to channels.");
    setRealmSetting(org.server, "can_invite_users_group", systemGroupId(org.server, "role:administrators"));
    await refuse(moderator, {}, "Insufficient permission");
    setRealmSetting(org.server, "can_add_subscribers_group", systemGroupId(org.server, "role:members"));
    setRealmSetting(org.server, "can_invite_users_group", systemGroupId(org.server, "role:members"));
    expect(await listAll()).toEqual(before);
  });
});

describe("POST /invites/multiuse", () => {
  test("an administrator's reusable link signs up several people until revoked, then says so", async () => {
    const { admin } = org;
    const channel = await createChannel(org, admin);
    const { invite_link } = ok(await admin.api.post("/invites/multiuse", { stream_ids: [channel], invite_expires_in_minutes: null, invite_as: 400 }));
    expect(invite_link).toMatch(/\/join\/\w+\/$/);
    const listed = (await listAll()).find((invite) => invite.is_multiuse && invite.link_url === invite_link);
    expect(listed).toMatchObject({ is_multiuse: true, expiry_date: null, invited_as: 400, invited_by_user_id: admin.id });
    expect(listed.email).toBeUndefined();

    const page = await (await fetch(local(invite_link))).text();
    expect(page).toContain('name="email"');
    for (const name of ["Ria Reuse", "Rob Reuse"]) {
      const email = `${name.split(" ")[0].toLowerCase()}@example.com`;
      expect((await join(invite_link, { email, full_name: name, password: "reuse-password" })).status).toBe(303);
      const person = await login(org.anon, email, "reuse-password");
      expect(ok(await person.api.get("/users/me/subscriptions")).subscriptions.map((sub: any) => sub.stream_id)).toEqual([channel]);
    }
    // A taken address is refused on the form, which stays.
    const taken = await join(invite_link, { email: "ria@example.com", full_name: "Ria Again", password: "reuse-password" });
    expect(taken.status).toBe(400);
    expect(taken.page).toContain("already exists");

    ok(await admin.api.delete(`/invites/multiuse/${listed.id}`));
    const revoked = await fetch(local(invite_link));
    expect(revoked.status).toBe(410);
    expect(await revoked.text()).toContain("revoked");
    expect((await join(invite_link, { email: "late@example.com", full_name: "Late Comer", password: "late-password" })).page).toContain("revoked");
    const again = await admin.api.delete(`/invites/multiuse/${listed.id}`);
    expectError(again, "BAD_REQUEST");
    expect(again.body.msg).toBe("Invitation has already been revoked");
  });

  test("members and moderators need create_multiuse_invite_group; the role cap and channel rules hold", async () => {
    const before = await listAll();
    for (const person of [org.member, org.moderator, org.guest]) {
      const response = await person.api.post("/invites/multiuse", {});
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe("Insufficient permission");
    }
    expect((await org.admin.api.post("/invites/multiuse", { invite_as: 100 })).body.msg).toBe("Insufficient permission");
    expect((await org.admin.api.post("/invites/multiuse", { stream_ids: [999_999] })).body.msg).toBe("Invalid channel ID 999999. No invites were sent.");
    expect(await listAll()).toEqual(before);
    // Given the permission, a moderator may create links for roles up to their own.
    setRealmSetting(org.server, "create_multiuse_invite_group", systemGroupId(org.server, "role:moderators"));
    ok(await org.moderator.api.post("/invites/multiuse", { invite_as: 300 }));
    setRealmSetting(org.server, "create_multiuse_invite_group", systemGroupId(org.server, "role:administrators"));
  });
});

describe("revoke and resend", () => {
  test("the creator and administrators manage an invitation; others get 'No such invitation'", async () => {
    ok(await org.member.api.post("/invites", { invitee_emails: "managed@example.com", stream_ids: [] }));
    const firstMail = await mailsTo("managed@example.com");
    const invite = (await listAll()).find((each) => each.email === "managed@example.com");
    for (const [person, path] of [
      [org.member2, `/invites/${invite.id}`],
      [org.member, `/invites/999999`],
      [org.member, `/invites/multiuse/${invite.id}`],
    ] as const) {
      const response = await person.api.delete(path);
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe("No such invitation");
    }
    expectError(await org.member2.api.post(`/invites/${invite.id}/resend`), "BAD_REQUEST");
    expect((await org.guest.api.get("/invites")).body.code).toBe("BAD_REQUEST");

    ok(await org.member.api.post(`/invites/${invite.id}/resend`));
    const resent = await mailsTo("managed@example.com", firstMail.length + 1);
    expect(linkIn(resent.at(-1)!.text)).toBe(linkIn(firstMail[0].text));

    ok(await org.admin.api.delete(`/invites/${invite.id}`));
    expect((await listAll()).some((each) => each.id === invite.id)).toBe(false);
    const page = await fetch(local(linkIn(firstMail[0].text)));
    expect(page.status).toBe(410);
    expect(await page.text()).toContain("revoked");
    expect((await org.member.api.post(`/invites/${invite.id}/resend`)).body.msg).toBe("No such invitation");
    expect((await org.admin.api.delete(`/invites/${invite.id}`)).body.msg).toBe("No such invitation");
  });

  test("an unknown link says it is not valid", async () => {
    const response = await fetch(`${org.server.url}/join/not-a-real-key/`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("not valid");
  });
});
