/** An organization default for new users changed (reference: realm_user_settings_defaults update); to every active user. */
export interface RealmUserSettingsDefaultsEvent {
  type: "realm_user_settings_defaults";
  op: "update";
  property: string;
  value: boolean | number | string;
}
