import { listSavedSnippets } from "../../db/savedSnippets";
import type { Reader } from "../../db/types";
import type { UserStateContext } from "./context";
import { savedSnippetToApi } from "../../shapes/savedSnippets";

/** saved_snippets: the viewer's own snippets. */
export async function savedSnippetsState(db: Reader, { viewer }: UserStateContext) {
  return { saved_snippets: (await listSavedSnippets(db, viewer.id)).map(savedSnippetToApi) };
}
