import { Elysia, t } from "elysia";
import { subscribeUsers } from "../actions/subscribeUsers";
import { updateSubscriptionProperties } from "../actions/subscriptionProperties";
import { unsubscribeUsers } from "../actions/unsubscribeUsers";
import { authentication } from "../http/auth";
import { badRequest, success } from "../http/errors";
import { CHANNEL_GROUP_SETTING_NAMES, type ChannelGroupSettingName } from "../model/channelSettings";
import type { GroupSettingValue } from "../model/groupSetting";
import { MAX_JSON_TEXT_LENGTH, jsonEncoded } from "../http/jsonText";
import { channelGroupSettingParams, GroupSettingParam, RetentionParam, retentionValue } from "../http/params";
import { listSubscriptions } from "../reads/channels";

/**
 * principals: a JSON list of user IDs or of e-mail addresses, not a mix. Parsed here because
 * a schema union of the two list forms does not decode the string form.
 */
export const PrincipalsParam = t.String(jsonEncoded({ maxLength: MAX_JSON_TEXT_LENGTH }));
export function principalsValue(raw: string | undefined): number[] | string[] | undefined {
  if (raw === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw badRequest("Argument 'principals' is not valid JSON.", { var_name: "principals" });
  }
  const isIds = Array.isArray(value) && value.every((item) => Number.isSafeInteger(item));
  const isEmails = Array.isArray(value) && value.every((item) => typeof item === "string" && item.length <= 254);
  if (!isIds && !isEmails) throw badRequest("'principals' must be a list of user IDs or a list of e-mail addresses", { var_name: "principals" });
  return value as number[] | string[];
}

export const subscriptionRoutes = new Elysia()
  .use(authentication)
  .get(
    "/users/me/subscriptions",
    async ({ user, query }) => success({ subscriptions: await listSubscriptions(user, { includeSubscribers: query.include_subscribers ?? false }) }),
    { auth: true, query: t.Object({ include_subscribers: t.Optional(t.BooleanString()) }) },
  )
  .post(
    "/users/me/subscriptions",
    async ({ user, body }) => {
      const groupSettings: Partial<Record<ChannelGroupSettingName, GroupSettingValue>> = {};
      for (const name of CHANNEL_GROUP_SETTING_NAMES) if (body[name] !== undefined) groupSettings[name] = body[name];
      return success(
        await subscribeUsers(user, {
          subscriptions: body.subscriptions,
          principals: principalsValue(body.principals),
          authorizationErrorsFatal: body.authorization_errors_fatal ?? true,
          announce: body.announce ?? false,
          inviteOnly: body.invite_only ?? false,
          isWebPublic: body.is_web_public ?? false,
          isDefaultStream: body.is_default_stream ?? false,
          historyPublicToSubscribers: body.history_public_to_subscribers,
          messageRetentionDays: retentionValue(body.message_retention_days ?? "realm_default"),
          groupSettings,
        }),
      );
    },
    {
      auth: true,
      body: t.Object({
        subscriptions: t.ArrayString(
          t.Object({ name: t.String({ maxLength: 1000 }), description: t.Optional(t.String({ maxLength: 100_000 })), color: t.Optional(t.String({ maxLength: 100 })) }),
        ),
        principals: t.Optional(PrincipalsParam),
        authorization_errors_fatal: t.Optional(t.BooleanString()),
        announce: t.Optional(t.BooleanString()),
        invite_only: t.Optional(t.BooleanString()),
        is_web_public: t.Optional(t.BooleanString()),
        is_default_stream: t.Optional(t.BooleanString()),
        history_public_to_subscribers: t.Optional(t.BooleanString()),
        message_retention_days: t.Optional(RetentionParam),
        ...channelGroupSettingParams(GroupSettingParam),
      }),
    },
  )
  .delete(
    "/users/me/subscriptions",
    async ({ user, body }) => success(await unsubscribeUsers(user, body.subscriptions, principalsValue(body.principals))),
    {
      auth: true,
      body: t.Object({ subscriptions: t.ArrayString(t.String({ maxLength: 1000 })), principals: t.Optional(PrincipalsParam) }),
    },
  )
  .post(
    "/users/me/subscriptions/properties",
    async ({ user, body }) => {
      await updateSubscriptionProperties(user, body.subscription_data);
      return success();
    },
    {
      auth: true,
      body: t.Object({
        subscription_data: t.ArrayString(
          t.Object({ stream_id: t.Integer(), property: t.String({ maxLength: 100 }), value: t.Union([t.Boolean(), t.String({ maxLength: 100 })]) }),
        ),
      }),
    },
  );
