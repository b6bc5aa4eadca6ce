/**
 * The pre-feature-level-89 forms of a user_settings change. Actions emit them beside the modern
 * event; the registry drops them for queues whose client declared user_settings_object.
 */

export interface UpdateDisplaySettingsEvent {
  type: "update_display_settings";
  user: string;
  setting_name: string;
  setting: unknown;
  language_name?: string;
}

export interface UpdateGlobalNotificationsEvent {
  type: "update_global_notifications";
  user: string;
  notification_name: string;
  setting: unknown;
}

export type LegacySettingsEvent = UpdateDisplaySettingsEvent | UpdateGlobalNotificationsEvent;
