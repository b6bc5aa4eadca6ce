import { Elysia, t } from "elysia";
import { addDefaultChannelById, archiveChannel, removeDefaultChannelById } from "../actions/channels";
import { type ChannelChanges, updateChannelSettings } from "../actions/updateChannel";
import { authentication } from "../http/auth";
import { success } from "../http/errors";
import { GroupSettingJson, RetentionParam, channelGroupSettingParams, retentionValue } from "../http/params";
import { CHANNEL_GROUP_SETTING_NAMES } from "../model/channelSettings";
import { getChannel, getChannelIdByName, isUserSubscribed, listChannelSubscribers, listChannelsFor } from "../reads/channels";

const flag = () => t.Optional(t.BooleanString());
const ChannelIdParams = t.Object({ stream_id: t.Numeric({ multipleOf: 1 }) });
const GroupSettingUpdate = t.ObjectString({ new: GroupSettingJson, old: t.Optional(GroupSettingJson) });

export const channelRoutes = new Elysia()
  .use(authentication)
  .get(
    "/streams",
    async ({ user, query }) =>
      success({
        streams: await listChannelsFor(user, {
          includePublic: query.include_public ?? true,
          includeWebPublic: query.include_web_public ?? false,
          includeSubscribed: query.include_subscribed ?? true,
          excludeArchived: query.exclude_archived ?? true,
          includeAll: query.include_all ?? false,
          includeDefault: query.include_default ?? false,
          includeOwnerSubscribed: query.include_owner_subscribed ?? false,
          includeCanAccessContent: query.include_can_access_content ?? false,
          includeAllActive: query.include_all_active ?? false,
        }),
      }),
    {
      auth: true,
      query: t.Object({
        include_public: flag(),
        include_web_public: flag(),
        include_subscribed: flag(),
        exclude_archived: flag(),
        include_all: flag(),
        include_default: flag(),
        include_owner_subscribed: flag(),
        include_can_access_content: flag(),
        include_all_active: flag(),
      }),
    },
  )
  .get(
    "/streams/:stream_id",
    async ({ user, params }) => success({ stream: await getChannel(user, params.stream_id) }),
    { auth: true, params: ChannelIdParams, query: t.Object({}) },
  )
  .get(
    "/streams/:stream_id/members",
    async ({ user, params }) => success({ subscribers: await listChannelSubscribers(user, params.stream_id) }),
    { auth: true, params: ChannelIdParams, query: t.Object({}) },
  )
  .get(
    "/get_stream_id",
    async ({ user, query }) => success({ stream_id: await getChannelIdByName(user, query.stream) }),
    { auth: true, query: t.Object({ stream: t.String({ maxLength: 1000 }) }) },
  )
  .get(
    "/users/:user_id/subscriptions/:stream_id",
    async ({ user, params }) => success({ is_subscribed: await isUserSubscribed(user, params.user_id, params.stream_id) }),
    { auth: true, params: t.Object({ user_id: t.Numeric({ multipleOf: 1 }), stream_id: t.Numeric({ multipleOf: 1 }) }), query: t.Object({}) },
  )
  .patch(
    "/streams/:stream_id",
    async ({ user, params, body }) => {
      const groupSettings: ChannelChanges["groupSettings"] = {};
      for (const name of CHANNEL_GROUP_SETTING_NAMES) if (body[name] !== undefined) groupSettings[name] = body[name];
      await updateChannelSettings(user, params.stream_id, {
        description: body.description,
        newName: body.new_name,
        isPrivate: body.is_private,
        isWebPublic: body.is_web_public,
        historyPublicToSubscribers: body.history_public_to_subscribers,
        isDefaultStream: body.is_default_stream,
        messageRetentionDays: body.message_retention_days === undefined ? undefined : retentionValue(body.message_retention_days),
        isArchived: body.is_archived,
        groupSettings,
      });
      return success();
    },
    {
      auth: true,
      params: ChannelIdParams,
      body: t.Object({
        description: t.Optional(t.String({ maxLength: 100_000 })),
        new_name: t.Optional(t.String({ maxLength: 1000 })),
        is_private: flag(),
        is_web_public: flag(),
        history_public_to_subscribers: flag(),
        is_default_stream: flag(),
        message_retention_days: t.Optional(RetentionParam),
        is_archived: flag(),
        ...channelGroupSettingParams(GroupSettingUpdate),
      }),
    },
  )
  .delete(
    "/streams/:stream_id",
    async ({ user, params }) => {
      await archiveChannel(user, params.stream_id);
      return success();
    },
    { auth: true, params: ChannelIdParams, body: t.Object({}) },
  )
  .post(
    "/default_streams",
    async ({ user, body }) => {
      await addDefaultChannelById(user, body.stream_id);
      return success();
    },
    { auth: true, body: t.Object({ stream_id: t.Numeric({ multipleOf: 1 }) }) },
  )
  .delete(
    "/default_streams",
    async ({ user, body }) => {
      await removeDefaultChannelById(user, body.stream_id);
      return success();
    },
    { auth: true, body: t.Object({ stream_id: t.Numeric({ multipleOf: 1 }) }) },
  );
