import { listLinkifiers } from "../db/linkifiers";
import { readWithoutSnapshot } from "../db/transaction";
import { type ApiLinkifier, linkifierToApi } from "../shapes/linkifiers";

/** GET /realm/linkifiers: the organization's linkifiers in the order they apply; every member may read them. */
export const listRealmLinkifiers = async (): Promise<ApiLinkifier[]> => (await readWithoutSnapshot(listLinkifiers)).map(linkifierToApi);
