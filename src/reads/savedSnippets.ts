import { listSavedSnippets } from "../db/savedSnippets";
import { readWithoutSnapshot } from "../db/transaction";
import type { User } from "../db/users";
import { type ApiSavedSnippet, savedSnippetToApi } from "../shapes/savedSnippets";

/** GET /saved_snippets: the caller's own snippets; nobody sees another's. */
export const listOwnSavedSnippets = async (viewer: User): Promise<ApiSavedSnippet[]> => (await readWithoutSnapshot((db) => listSavedSnippets(db, viewer.id))).map(savedSnippetToApi);
