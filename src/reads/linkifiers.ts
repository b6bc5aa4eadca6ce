import { database } from "../db/client";
import { type ApiLinkifier, linkifierToApi, listLinkifiers } from "../db/linkifiers";

/** GET /realm/linkifiers: the organization's linkifiers in the order they apply; every member may read them. */
export const listRealmLinkifiers = (): ApiLinkifier[] => listLinkifiers(database()).map(linkifierToApi);
