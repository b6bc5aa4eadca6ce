import { type TSchema, t } from "elysia";
import { USER_SETTINGS, type UserSettingName } from "../model/userSettings";
import { jsonEncoded } from "./jsonText";

/**
 * Route parameters that several routes share: the schemas and the little decoding that goes
 * with them. A route imports them from here, never from another route.
 */

const AnonymousValue = { direct_members: t.Array(t.Integer()), direct_subgroups: t.Array(t.Integer()) };
/** A group-setting value sent on its own: an integer, or a JSON object (spec convention 7). */
export const GroupSettingParam = t.Union([t.Numeric({ multipleOf: 1 }), t.ObjectString(AnonymousValue)]);
/** A group-setting value inside a JSON parameter, such as {new, old}. */
export const GroupSettingJson = t.Union([t.Integer(), t.Object(AnonymousValue)]);

/** One optional parameter per channel group-setting, all of the same schema. */
export const channelGroupSettingParams = <T extends TSchema>(schema: T) => ({
  can_add_subscribers_group: t.Optional(schema),
  can_remove_subscribers_group: t.Optional(schema),
  can_administer_channel_group: t.Optional(schema),
  can_send_message_group: t.Optional(schema),
  can_subscribe_group: t.Optional(schema),
});

/** "unlimited", "realm_default" or a number of days, plain or JSON-encoded. */
export const RetentionParam = t.Union([t.Numeric({ multipleOf: 1 }), t.String({ maxLength: 40 })]);
export function retentionValue(raw: string | number): string | number {
  if (typeof raw === "number" || !raw.startsWith('"')) return raw;
  try {
    const decoded: unknown = JSON.parse(raw);
    return typeof decoded === "string" ? decoded : raw;
  } catch {
    return raw;
  }
}

/** One optional parameter per setting of the catalogue, typed by its kind. */
export const settingParameters = Object.fromEntries(
  Object.entries(USER_SETTINGS).map(([name, spec]) => {
    const schema: TSchema = spec.kind === "bool" ? t.BooleanString() : spec.kind === "int" ? t.Numeric() : t.String({ maxLength: 100 });
    return [name, t.Optional(schema)];
  }),
) as Record<UserSettingName, TSchema>;

/** The uploaded files of a multipart body, whatever their field names (python-zulip-api names them after the file). */
export const filesOf = (body: unknown): File[] =>
  body !== null && typeof body === "object" ? Object.values(body as Record<string, unknown>).filter((value): value is File => value instanceof Blob) : [];

// ---- History and flags (routes/messageReading.ts, routes/messageFlags.ts) ----

export const optionalFlag = () => t.Optional(t.BooleanString());
/** num_before, num_after. */
export const CountParam = t.Numeric({ minimum: 0, maximum: 1_000_000_000, multipleOf: 1 });
export const NarrowParam = t.String(jsonEncoded({ maxLength: 100_000 }));
export const MessageIdsParam = t.ArrayString(t.Integer({ minimum: 0 }), { maxItems: 100_000 });
export const AnchorParam = t.String({ maxLength: 40 });
