import { database } from "../db/client";
import { type ApiSavedSnippet, listSavedSnippets, savedSnippetToApi } from "../db/savedSnippets";
import type { User } from "../db/users";

/** GET /saved_snippets: the caller's own snippets; nobody sees another's. */
export const listOwnSavedSnippets = (viewer: User): ApiSavedSnippet[] => listSavedSnippets(database(), viewer.id).map(savedSnippetToApi);
