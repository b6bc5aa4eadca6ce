import { listDrafts } from "../db/drafts";
import { read } from "../db/transaction";
import type { User } from "../db/users";
import { draftToApi, type ApiDraft } from "../shapes/drafts";

/** GET /drafts: the caller's own; nobody sees another's. */
export const listOwnDrafts = (viewer: User): ApiDraft[] => read((db) => listDrafts(db, viewer.id).map(draftToApi));
