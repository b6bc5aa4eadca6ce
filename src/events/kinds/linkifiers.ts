import type { ApiLinkifier } from "../../shapes/linkifiers";

/** The whole ordered list after any change; only clients with linkifier_url_template get it (events/filters.ts). */
export interface RealmLinkifiersEvent {
  type: "realm_linkifiers";
  realm_linkifiers: ApiLinkifier[];
}
