import { listDrafts } from "../db/drafts";
import { read } from "../db/transaction";
import type { User } from "../db/users";
import { draftToApi, type ApiDraft } from "../shapes/drafts";

/** GET /drafts: the caller's own; nobody sees another's. */
export const listOwnDrafts = (viewer: User): Promise<ApiDraft[]> => read(async (db) => (await listDrafts(db, viewer.id)).map(draftToApi));
