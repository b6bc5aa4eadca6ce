import { database } from "../db/client";
import { listSavedSnippets } from "../db/savedSnippets";
import type { User } from "../db/users";
import { type ApiSavedSnippet, savedSnippetToApi } from "../shapes/savedSnippets";

/** GET /saved_snippets: the caller's own snippets; nobody sees another's. */
export const listOwnSavedSnippets = (viewer: User): ApiSavedSnippet[] => listSavedSnippets(database(), viewer.id).map(savedSnippetToApi);
