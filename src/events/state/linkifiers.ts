import { listLinkifiers } from "../../db/linkifiers";
import type { Reader } from "../../db/types";
import type { StateContext } from "./context";
import { linkifierToApi } from "../../shapes/linkifiers";

/** realm_linkifiers: the ordered list, or empty for clients that cannot read URL templates (spec 4.19). */
export async function realmLinkifiersState(db: Reader, { spec }: StateContext) {
  return { realm_linkifiers: spec.capabilities.linkifier_url_template ? (await listLinkifiers(db)).map(linkifierToApi) : [] };
}
