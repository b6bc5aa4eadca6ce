import { Elysia, t } from "elysia";
import { EDITABLE_GROUP_SETTINGS, type EditableGroupSetting, type GroupSettingChange, type RealmChanges, updateRealmSettings } from "../actions/realmSettings";
import { authentication } from "../http/auth";
import { badRequest, success } from "../http/errors";
import { GroupSettingJson, retentionValue } from "../http/params";
import { previewLinkifier } from "../reads/linkifierPreview";

/** A time limit: whole seconds, or "unlimited" (also JSON-encoded, as the reference's web app sends it). */
const TimeLimit = t.Optional(t.Union([t.Numeric({ multipleOf: 1 }), t.String({ maxLength: 40 })]));
/** spec 4.7: group settings change in the {new, old} form. */
const GroupSettingUpdate = t.Optional(t.ObjectString({ new: GroupSettingJson, old: t.Optional(GroupSettingJson) }));

const TIME_LIMITS = ["message_content_edit_limit_seconds", "message_content_delete_limit_seconds", "move_messages_within_stream_limit_seconds", "move_messages_between_streams_limit_seconds"] as const;

function timeLimit(name: string, raw: string | number): number | null {
  const value = retentionValue(raw);
  if (value === "unlimited") return null;
  if (typeof value === "number") return value;
  throw badRequest(`Bad value for '${name}': ${value}`);
}

/** An upload quota: MiB, or "unlimited" for none. */
function quota(name: string, raw: string | number | undefined): number | null | undefined {
  if (raw === undefined) return undefined;
  const value = retentionValue(raw);
  if (value === "unlimited") return null;
  if (typeof value === "number") return value;
  throw badRequest(`Bad value for '${name}': ${value}`);
}

const Quota = t.Optional(t.Union([t.Numeric({ multipleOf: 1 }), t.String({ maxLength: 40 })]));

const defined = <T extends object>(object: T) => Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as Partial<T>;

export const realmSettingsRoutes = new Elysia()
  .use(authentication)
  .patch(
    "/realm",
    async ({ user, body }) => {
      if (body.topics_policy !== undefined && body.mandatory_topics !== undefined && (body.topics_policy === "disable_empty_topic") !== body.mandatory_topics) {
        throw badRequest("'topics_policy' and 'mandatory_topics' disagree.");
      }
      const mandatoryTopics = body.mandatory_topics ?? (body.topics_policy === undefined ? undefined : body.topics_policy === "disable_empty_topic");
      const changes: RealmChanges = {
        name: body.name,
        description: body.description,
        settings: defined({
          mandatory_topics: mandatoryTopics,
          waiting_period_threshold: body.waiting_period_threshold,
          enable_spectator_access: body.enable_spectator_access,
          new_stream_announcements_stream_id:
            body.new_stream_announcements_stream_id === undefined ? undefined : body.new_stream_announcements_stream_id < 0 ? null : body.new_stream_announcements_stream_id,
          allow_message_editing: body.allow_message_editing,
          message_content_allowed_in_email_notifications: body.message_content_allowed_in_email_notifications,
          message_edit_history_visibility_policy: body.message_edit_history_visibility_policy,
          max_file_upload_size_mib: body.max_file_upload_size_mib,
          upload_quota_mib: quota("upload_quota_mib", body.upload_quota_mib),
          upload_quota_per_user_mib: quota("upload_quota_per_user_mib", body.upload_quota_per_user_mib),
          ...Object.fromEntries(TIME_LIMITS.filter((name) => body[name] !== undefined).map((name) => [name, timeLimit(name, body[name]!)])),
        }),
        groupSettings: Object.fromEntries(EDITABLE_GROUP_SETTINGS.filter((name) => body[name] !== undefined).map((name) => [name, body[name]])) as Partial<Record<EditableGroupSetting, GroupSettingChange>>,
      };
      return success(await updateRealmSettings(user, changes));
    },
    {
      auth: true,
      body: t.Object({
        name: t.Optional(t.String({ maxLength: 1000 })),
        description: t.Optional(t.String({ maxLength: 10_000 })),
        mandatory_topics: t.Optional(t.BooleanString()),
        topics_policy: t.Optional(t.Union([t.Literal("allow_empty_topic"), t.Literal("disable_empty_topic")])),
        waiting_period_threshold: t.Optional(t.Numeric({ multipleOf: 1, minimum: 0, maximum: 1_000_000 })),
        enable_spectator_access: t.Optional(t.BooleanString()),
        new_stream_announcements_stream_id: t.Optional(t.Numeric({ multipleOf: 1 })),
        allow_message_editing: t.Optional(t.BooleanString()),
        message_content_allowed_in_email_notifications: t.Optional(t.BooleanString()),
        message_content_edit_limit_seconds: TimeLimit,
        message_content_delete_limit_seconds: TimeLimit,
        move_messages_within_stream_limit_seconds: TimeLimit,
        move_messages_between_streams_limit_seconds: TimeLimit,
        message_edit_history_visibility_policy: t.Optional(t.Union([t.Literal("all"), t.Literal("moves"), t.Literal("none")])),
        max_file_upload_size_mib: t.Optional(t.Numeric({ multipleOf: 1 })),
        upload_quota_mib: Quota,
        upload_quota_per_user_mib: Quota,
        ...(Object.fromEntries(EDITABLE_GROUP_SETTINGS.map((name) => [name, GroupSettingUpdate])) as Record<EditableGroupSetting, typeof GroupSettingUpdate>),
      }),
    },
  )
  // Parley addition: what a linkifier would link in some text, before it is saved.
  .post("/realm/filters/test", async ({ user, body }) => success(await previewLinkifier(user, body)), {
    auth: true,
    body: t.Object({
      pattern: t.String({ maxLength: 1000 }),
      url_template: t.String({ maxLength: 1000 }),
      text: t.String({ maxLength: 10_000 }),
      filter_id: t.Optional(t.Numeric({ multipleOf: 1 })),
    }),
  });
