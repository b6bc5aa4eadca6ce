import { PageHead } from "../ui/components";
import { SettingGroup, SettingSelect, SettingToggle, WithSettings } from "./controls";
import { InstallInstructions, PushDevices } from "./pushDevices";

/** When and how Parley's clients tell the person about new messages (the reference's notification settings). */

const BATCHING = [
  { value: 120, label: "2 minutes" },
  { value: 300, label: "5 minutes" },
  { value: 600, label: "10 minutes" },
  { value: 1800, label: "30 minutes" },
  { value: 3600, label: "1 hour" },
  { value: 21600, label: "6 hours" },
  { value: 86400, label: "1 day" },
  { value: 604800, label: "1 week" },
];

const ICON_COUNT = [
  { value: 1, label: "All unread messages" },
  { value: 2, label: "Direct messages and mentions" },
  { value: 3, label: "Direct messages, mentions and followed topics" },
  { value: 4, label: "None" },
];

const REALM_NAME_IN_EMAIL = [
  { value: 1, label: "Automatic" },
  { value: 2, label: "Always" },
  { value: 3, label: "Never" },
];

export default function NotificationsSection() {
  return (
    <>
      <PageHead title="Notifications" description="What your Zulip apps alert you about, and what reaches you by e-mail. Changes are saved as you make them." />
      <WithSettings>
        {(settings) => (
          <div>
            <SettingGroup title="Direct messages and mentions" description="Always notified, in every app you use.">
              <SettingToggle name="enable_desktop_notifications" label="Desktop notifications" />
              <SettingToggle name="enable_sounds" label="Sound" />
              <SettingToggle name="pm_content_in_desktop_notifications" label="Include the message in desktop notifications" hint="Turn off when others might see your screen." />
              <SettingToggle name="wildcard_mentions_notify" label="Notify me of @all and @topic mentions" />
              <SettingSelect
                name="notification_sound"
                label="Notification sound"
                options={settings.available_notification_sounds.map((sound) => ({ value: sound, label: sound[0]!.toUpperCase() + sound.slice(1) }))}
              />
            </SettingGroup>
            <SettingGroup title="Channels" description="Messages in channels you subscribe to; each channel can say otherwise in its own settings.">
              <SettingToggle name="enable_stream_desktop_notifications" label="Desktop notifications" />
              <SettingToggle name="enable_stream_audible_notifications" label="Sound" />
              <SettingToggle name="enable_stream_push_notifications" label="Mobile notifications" />
              <SettingToggle name="enable_stream_email_notifications" label="E-mail notifications" />
            </SettingGroup>
            <SettingGroup title="Followed topics">
              <SettingToggle name="enable_followed_topic_desktop_notifications" label="Desktop notifications" />
              <SettingToggle name="enable_followed_topic_audible_notifications" label="Sound" />
              <SettingToggle name="enable_followed_topic_push_notifications" label="Mobile notifications" />
              <SettingToggle name="enable_followed_topic_email_notifications" label="E-mail notifications" />
              <SettingToggle name="enable_followed_topic_wildcard_mentions_notify" label="Notify me of @all and @topic mentions in followed topics" />
              <SettingToggle name="automatically_follow_topics_where_mentioned" label="Follow topics where I am mentioned" />
            </SettingGroup>
            <SettingGroup title="Mobile">
              <SettingToggle name="enable_offline_push_notifications" label="Mobile notifications when I am away" />
              <SettingToggle name="enable_online_push_notifications" label="Mobile notifications even when I am online" />
              <SettingSelect name="desktop_icon_count_display" label="Unread count on the app icon" options={ICON_COUNT} />
            </SettingGroup>
            <SettingGroup title="E-mail">
              <SettingToggle name="enable_offline_email_notifications" label="E-mail me about direct messages and mentions while I am away" />
              <SettingToggle name="message_content_in_email_notifications" label="Include the message in e-mail notifications" />
              <div class="form-grid">
                <SettingSelect name="email_notifications_batching_period_seconds" label="Wait before e-mailing" options={BATCHING} hint="Messages that arrive meanwhile come in one e-mail." />
                <SettingSelect name="realm_name_in_email_notifications_policy" label="Organization name in the subject" options={REALM_NAME_IN_EMAIL} />
              </div>
              <SettingToggle name="enable_digest_emails" label="Digest e-mails while I am away" />
              <SettingToggle name="enable_login_emails" label="E-mail me when my account signs in somewhere new" />
              <SettingToggle name="enable_marketing_emails" label="News about Parley" />
            </SettingGroup>
          </div>
        )}
      </WithSettings>
      <div class="push-section">
        <PushDevices />
        <InstallInstructions />
      </div>
    </>
  );
}
