import { findRealm, type Realm, realmIfCached } from "./realm";
import { readWithoutSnapshot } from "./transaction";

/**
 * The realm as last committed, for code outside any transaction (GET /users/me, a session's
 * check, /server_settings): its cached copy when current, which takes no turn on the read
 * connection, else read. Undefined before first-run setup has made it.
 */
export function realmNow(): Promise<Realm | undefined> {
  return realmIfCached() ?? readWithoutSnapshot(findRealm);
}
