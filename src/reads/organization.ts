import { findRealm, type Realm } from "../db/realm";
import { realmNow } from "../db/realmNow";
import { read } from "../db/transaction";
import { versionFields } from "../version";
import { webPushPublicKey } from "./webPushKeys";

/** The organization, or undefined before first-run setup has made it. */
export const findOrganization = (): Promise<Realm | undefined> => realmNow();

export const isSetUp = () => read(async (db) => (await findRealm(db)) !== undefined);

/** GET /server_settings: unauthenticated; what a client needs before it can log in. */
export async function getServerSettings() {
  const realm = await findOrganization();
  return {
    authentication_methods: { password: true, dev: false, email: true, ldap: false, remoteuser: false, github: false, azuread: false, gitlab: false, apple: false, google: false, saml: false, "openid connect": false },
    external_authentication_methods: [],
    ...versionFields(),
    // The Zulip apps' pushes go through Zulip's own relay, which this server does not use.
    push_notifications_enabled: false,
    // What browsers subscribe with for Web Push (VAPID, RFC 8292), base64url.
    web_push_public_key: await webPushPublicKey(),
    is_incompatible: false,
    email_auth_enabled: true,
    require_email_format_usernames: true,
    ...(realm
      ? {
          realm_url: realm.url,
          realm_uri: realm.url,
          realm_name: realm.name,
          realm_icon: `${realm.url}/static/icon.png`,
          realm_description: realm.description,
          realm_web_public_access_enabled: realm.settings.enable_spectator_access,
        }
      : {}),
  };
}

