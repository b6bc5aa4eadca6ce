import { listDrafts } from "../../db/drafts";
import type { Reader } from "../../db/types";
import type { UserStateContext } from "./context";
import { draftToApi } from "../../shapes/drafts";

/** drafts: the viewer's server-side drafts, none while they have synchronization off. */
export async function draftsState(db: Reader, { viewer }: UserStateContext) {
  const synchronized = viewer.settings.enable_drafts_synchronization !== false;
  return { drafts: synchronized ? (await listDrafts(db, viewer.id)).map(draftToApi) : [] };
}
