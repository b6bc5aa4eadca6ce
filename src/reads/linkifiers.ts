import { database } from "../db/client";
import { listLinkifiers } from "../db/linkifiers";
import { type ApiLinkifier, linkifierToApi } from "../shapes/linkifiers";

/** GET /realm/linkifiers: the organization's linkifiers in the order they apply; every member may read them. */
export const listRealmLinkifiers = (): ApiLinkifier[] => listLinkifiers(database()).map(linkifierToApi);
