import { Elysia, t } from "elysia";
import { createInviteLink, inviteByEmail, resendInvite, revokeInvite } from "../actions/invites";
import { authentication } from "../http/auth";
import { badRequest, success } from "../http/errors";
import { Role } from "../model/roles";
import { listInvites } from "../reads/invites";

/**
 * Invitations (spec 4.8, 4.12) and the reference's supporting endpoints: list, revoke,
 * resend. POST /invites answers `invite_links` (address → URL) when no mail server is
 * configured, so the inviter can pass the links on; otherwise the mail carries them.
 */

const IdList = t.ArrayString(t.Integer(), { maxItems: 10_000 });
const InviteIdParams = t.Object({ invite_id: t.Numeric({ multipleOf: 1 }) });

/** "integer or null", JSON-encoded as the spec's list and object parameters are. */
function parseExpiry(raw: string | undefined): number | null | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (text === "null") return null;
  if (!/^-?\d{1,12}$/.test(text)) throw badRequest("invite_expires_in_minutes is not an integer or null");
  return Number(text);
}

const sharedParams = {
  invite_expires_in_minutes: t.Optional(t.String({ maxLength: 32 })),
  invite_as: t.Optional(t.Numeric({ multipleOf: 1 })),
  group_ids: t.Optional(IdList),
  include_realm_default_subscriptions: t.Optional(t.BooleanString()),
};

type SharedBody = {
  invite_expires_in_minutes?: string;
  invite_as?: number;
  stream_ids?: number[];
  group_ids?: number[];
  include_realm_default_subscriptions?: boolean;
};

const optionsOf = (body: SharedBody) => ({
  expiresInMinutes: parseExpiry(body.invite_expires_in_minutes),
  inviteAs: body.invite_as ?? Role.MEMBER,
  streamIds: body.stream_ids ?? [],
  groupIds: body.group_ids ?? [],
  includeRealmDefaultSubscriptions: body.include_realm_default_subscriptions ?? false,
});

export const inviteRoutes = new Elysia()
  .use(authentication)
  .get("/invites", async ({ user }) => success({ invites: await listInvites(user) }), { auth: true, query: t.Object({}) })
  .post(
    "/invites",
    async ({ user, body }) => success(await inviteByEmail(user, body.invitee_emails, { ...optionsOf(body), notifyReferrerOnJoin: body.notify_referrer_on_join ?? true })),
    {
      auth: true,
      body: t.Object({
        invitee_emails: t.String({ maxLength: 100_000 }),
        stream_ids: IdList,
        notify_referrer_on_join: t.Optional(t.BooleanString()),
        ...sharedParams,
      }),
    },
  )
  .post("/invites/multiuse", async ({ user, body }) => success(await createInviteLink(user, optionsOf(body))), {
    auth: true,
    body: t.Object({ stream_ids: t.Optional(IdList), ...sharedParams }),
  })
  .delete(
    "/invites/:invite_id",
    async ({ user, params }) => {
      await revokeInvite(user, params.invite_id, false);
      return success();
    },
    { auth: true, params: InviteIdParams, body: t.Object({}) },
  )
  .delete(
    "/invites/multiuse/:invite_id",
    async ({ user, params }) => {
      await revokeInvite(user, params.invite_id, true);
      return success();
    },
    { auth: true, params: InviteIdParams, body: t.Object({}) },
  )
  .post(
    "/invites/:invite_id/resend",
    async ({ user, params }) => {
      await resendInvite(user, params.invite_id);
      return success();
    },
    { auth: true, params: InviteIdParams, body: t.Object({}) },
  );
