import { Checkbox, Field, Select } from "../../ui/components";
import { ROLE_NAMES } from "../../ui/me";
import type { ChannelChoice } from "./types";

/** What both kinds of invitation ask: the role, how long it works, and the channels to join. */

export interface InviteOptionValues {
  role: number;
  /** Minutes as text, or "never". */
  expiry: string;
  channelIds: number[];
  defaultChannels: boolean;
}

export const EXPIRY_OPTIONS = [
  { value: "60", label: "1 hour" },
  { value: "1440", label: "1 day" },
  { value: "4320", label: "3 days" },
  { value: "14400", label: "10 days" },
  { value: "43200", label: "30 days" },
  { value: "never", label: "Never expires" },
];

export const initialOptions = (): InviteOptionValues => ({ role: 400, expiry: "14400", channelIds: [], defaultChannels: true });

/** The parameters POST /invites and POST /invites/multiuse share. */
export const optionParams = (values: InviteOptionValues) => ({
  invite_as: values.role,
  invite_expires_in_minutes: values.expiry === "never" ? null : Number(values.expiry),
  stream_ids: values.channelIds,
  include_realm_default_subscriptions: values.defaultChannels,
});

export function InviteOptions(props: { prefix: string; myRole: number; channels: ChannelChoice[]; values: InviteOptionValues; onChange: (values: InviteOptionValues) => void }) {
  const { values, onChange, prefix } = props;
  // An invitation grants at most the inviter's own role (lower numbers carry more privilege).
  const roles = [100, 200, 300, 400, 600].filter((role) => role >= props.myRole).map((role) => ({ value: role, label: ROLE_NAMES[role] }));
  const toggle = (id: number, on: boolean) => onChange({ ...values, channelIds: on ? [...values.channelIds, id] : values.channelIds.filter((other) => other !== id) });
  return (
    <>
      <div class="form-grid">
        <Field label="Role" id={`${prefix}-role`} hint="What they may do once they join.">
          <Select id={`${prefix}-role`} value={values.role} options={roles} onValue={(role) => onChange({ ...values, role })} />
        </Field>
        <Field label="Expires after" id={`${prefix}-expiry`}>
          <Select id={`${prefix}-expiry`} value={values.expiry} options={EXPIRY_OPTIONS} onValue={(expiry) => onChange({ ...values, expiry })} />
        </Field>
      </div>
      <fieldset class="fieldset">
        <legend class="label">Channels to join</legend>
        <Checkbox id={`${prefix}-defaults`} label="The organization's default channels" checked={values.defaultChannels} onChecked={(defaultChannels) => onChange({ ...values, defaultChannels })} />
        {props.channels.length > 0 && (
          <div class="checklist" role="group" aria-label="Other channels">
            {props.channels.map((channel) => (
              <Checkbox
                key={channel.stream_id}
                id={`${prefix}-channel-${channel.stream_id}`}
                label={`#${channel.name}${channel.invite_only ? " (private)" : ""}`}
                checked={values.channelIds.includes(channel.stream_id)}
                onChecked={(on) => toggle(channel.stream_id, on)}
              />
            ))}
          </div>
        )}
      </fieldset>
    </>
  );
}
