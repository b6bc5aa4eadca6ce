import { PageHead } from "../ui/components";
import { SettingGroup, SettingSelect, SettingToggle, WithSettings } from "./controls";

/** What others learn about the person: presence, typing, read receipts, their e-mail address. */

const EMAIL_VISIBILITY = [
  { value: 1, label: "Everyone" },
  { value: 2, label: "Members (not guests)" },
  { value: 5, label: "Moderators and administrators" },
  { value: 3, label: "Administrators only" },
  { value: 4, label: "Nobody" },
];

export default function PrivacySection() {
  return (
    <>
      <PageHead title="Privacy" description="What others in the organization may learn about you. Changes are saved as you make them." />
      <WithSettings>
        {() => (
          <div>
            <SettingGroup title="Activity">
              <SettingToggle name="presence_enabled" label="Show when I am online" hint="Otherwise you always appear away." />
              <SettingToggle name="send_read_receipts" label="Let others see when I have read their messages" />
              <SettingToggle name="send_private_typing_notifications" label="Show that I am typing a direct message" />
              <SettingToggle name="send_stream_typing_notifications" label="Show that I am typing in a channel" />
              <SettingToggle name="receives_typing_notifications" label="Show me when others are typing" />
            </SettingGroup>
            <SettingGroup title="Your e-mail address">
              <SettingSelect name="email_address_visibility" label="Who may see your real e-mail address" options={EMAIL_VISIBILITY} hint="Everyone else sees a stand-in address instead." />
            </SettingGroup>
            <SettingGroup title="Data">
              <SettingToggle name="enable_drafts_synchronization" label="Keep my drafts on the server" hint="Turning this off deletes the drafts stored there." />
              <SettingToggle name="allow_private_data_export" label="Let administrators export my private data" />
            </SettingGroup>
          </div>
        )}
      </WithSettings>
    </>
  );
}
