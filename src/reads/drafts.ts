import { draftToApi, listDrafts, type ApiDraft } from "../db/drafts";
import { read } from "../db/transaction";
import type { User } from "../db/users";

/** GET /drafts: the caller's own; nobody sees another's. */
export const listOwnDrafts = (viewer: User): ApiDraft[] => read((db) => listDrafts(db, viewer.id).map(draftToApi));
