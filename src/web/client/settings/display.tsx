import { PageHead } from "../ui/components";
import { SettingGroup, SettingSelect, SettingToggle, WithSettings } from "./controls";

/** How Parley's pages and the Zulip apps look and behave for the person (the reference's display settings). */

const COLOR_SCHEMES = [
  { value: 1, label: "Automatic (as the device)" },
  { value: 3, label: "Light" },
  { value: 2, label: "Dark" },
];

const TIME_FORMATS = [
  { value: "12", label: "12-hour (1:00 PM)" },
  { value: "24", label: "24-hour (13:00)" },
];

const FONT_SIZES = [12, 13, 14, 15, 16, 17, 18, 20, 22, 24].map((size) => ({ value: size, label: `${size} px` }));
const LINE_HEIGHTS = [122, 130, 140, 150, 158].map((percent) => ({ value: percent, label: `${percent}%` }));

const HOME_VIEWS = [
  { value: "inbox", label: "Inbox" },
  { value: "recent_topics", label: "Recent conversations" },
  { value: "all_messages", label: "Combined feed" },
];

const MARK_READ = [
  { value: 1, label: "Always" },
  { value: 2, label: "Only in conversation views" },
  { value: 3, label: "Never" },
];

const CHANNEL_LINK = [
  { value: 1, label: "Top topic in the channel" },
  { value: 2, label: "Channel feed" },
];

const USER_LIST = [
  { value: 1, label: "Compact" },
  { value: 2, label: "With status" },
  { value: 3, label: "With avatar and status" },
];

const ANIMATE_PREVIEWS = [
  { value: "always", label: "Always" },
  { value: "on_hover", label: "When the pointer is over them" },
  { value: "never", label: "Never" },
];

const DEMOTE_INACTIVE = [
  { value: 1, label: "Automatic" },
  { value: 2, label: "Always" },
  { value: 3, label: "Never" },
];

const UNREAD_COUNTS = [
  { value: 1, label: "All channels" },
  { value: 2, label: "Unmuted channels and topics" },
  { value: 3, label: "No channels" },
];

/** The zones this browser knows, with "" (the reference's "not set") first. */
function timeZones(current: string) {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  const all = current && !zones.includes(current) ? [current, ...zones] : zones;
  return [{ value: "", label: "Not set" }, ...all.map((zone) => ({ value: zone, label: zone.replaceAll("_", " ") }))];
}

export default function DisplaySection() {
  return (
    <>
      <PageHead title="Display" description="The theme of these pages, and how your Zulip apps show messages. Changes are saved as you make them." />
      <WithSettings>
        {(settings) => (
          <div>
            <SettingGroup title="Theme and text">
              <div class="form-grid">
                <SettingSelect name="color_scheme" label="Theme" options={COLOR_SCHEMES} hint="Applies to these pages at once." />
                <SettingSelect name="web_font_size_px" label="Message text size" options={FONT_SIZES} />
                <SettingSelect name="web_line_height_percent" label="Line spacing" options={LINE_HEIGHTS} />
              </div>
              <SettingToggle name="high_contrast_mode" label="High contrast" />
              <SettingToggle name="fluid_layout_width" label="Use the full width of wide screens" />
            </SettingGroup>
            <SettingGroup title="Time">
              <div class="form-grid">
                <TimeFormat />
                <SettingSelect name="timezone" label="Time zone" options={timeZones(String(settings.timezone ?? ""))} hint="Shown to others beside your name." />
              </div>
            </SettingGroup>
            <SettingGroup title="Emoji">
              <SettingSelect name="emojiset" label="Emoji style" options={settings.emojiset_choices.map((choice) => ({ value: choice.key, label: choice.text }))} />
              <SettingToggle name="translate_emoticons" label="Turn emoticons such as :) into emoji" />
              <SettingToggle name="display_emoji_reaction_users" label="Show who reacted, when few did" />
            </SettingGroup>
            <SettingGroup title="Reading and navigation">
              <div class="form-grid">
                <SettingSelect name="web_home_view" label="Home view" options={HOME_VIEWS} />
                <SettingSelect name="web_mark_read_on_scroll_policy" label="Mark as read when scrolling" options={MARK_READ} />
                <SettingSelect name="web_channel_default_view" label="A click on a channel opens" options={CHANNEL_LINK} />
                <SettingSelect name="user_list_style" label="People list" options={USER_LIST} />
                <SettingSelect name="web_animate_image_previews" label="Play animated images" options={ANIMATE_PREVIEWS} />
                <SettingSelect name="demote_inactive_streams" label="Move inactive channels down" options={DEMOTE_INACTIVE} />
                <SettingSelect name="web_stream_unreads_count_display_policy" label="Unread counts beside" options={UNREAD_COUNTS} />
              </div>
              <SettingToggle name="starred_message_counts" label="Show the number of starred messages" />
              <SettingToggle name="enter_sends" label="Enter sends a message" hint="Otherwise Ctrl+Enter sends and Enter starts a new line." />
              <SettingToggle name="web_escape_navigates_to_home_view" label="Escape goes to the home view" />
              <SettingToggle name="web_navigate_to_sent_message" label="Go to a message after sending it" />
              <SettingToggle name="left_side_userlist" label="People list on the left" />
            </SettingGroup>
          </div>
        )}
      </WithSettings>
    </>
  );
}

/** twenty_four_hour_time is a boolean; a choice of two formats reads better than a checkbox. */
function TimeFormat() {
  return <SettingSelect name="twenty_four_hour_time" label="Time format" options={TIME_FORMATS} toValue={(choice) => choice === "24"} fromValue={(value) => (value === true ? "24" : "12")} />;
}
