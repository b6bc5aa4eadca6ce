import { deleteSavedSnippet, findOwnSavedSnippet, insertSavedSnippet, updateSavedSnippet, type SavedSnippet } from "../db/savedSnippets";
import { write } from "../db/transaction";
import type { Tx } from "../db/types";
import type { User } from "../db/users";
import { ApiError, badRequest } from "../http/errors";
import { MAX_MESSAGE_LENGTH } from "../model/limits";
import { now } from "../model/clock";
import { savedSnippetToApi } from "../shapes/savedSnippets";

/** Saved snippets (spec 2.7, 4.15): each user's own; nobody else sees, changes or hears of them. */

export interface SnippetChanges {
  title?: string;
  content?: string;
}

/** The reference's limit on titles; contents are limited like messages. */
export const MAX_SNIPPET_TITLE_LENGTH = 60;
const LIMITS = { Title: MAX_SNIPPET_TITLE_LENGTH, Content: MAX_MESSAGE_LENGTH };

/** Titles and contents are stored trimmed, as in the reference, and may not be blank. */
function checked(field: keyof typeof LIMITS, value: string): string {
  const trimmed = value.trim();
  if (trimmed === "") throw badRequest(`${field} cannot be empty.`);
  if ([...trimmed].length > LIMITS[field]) throw badRequest(`${field} is too long (limit: ${LIMITS[field]} characters).`);
  return trimmed;
}

/** Another user's snippet answers exactly as an unknown ID does (404, BAD_REQUEST, as the reference). */
async function accessOwnSnippet(tx: Tx, user: User, id: number): Promise<SavedSnippet> {
  const snippet = await findOwnSavedSnippet(tx, user.id, id);
  if (!snippet) throw new ApiError("BAD_REQUEST", "Saved snippet does not exist.", {}, { status: 404 });
  return snippet;
}

export async function createSavedSnippet(user: User, input: { title: string; content: string }): Promise<number> {
  const title = checked("Title", input.title);
  const content = checked("Content", input.content);
  return await write(async (tx) => {
    const snippet = await insertSavedSnippet(tx, { userId: user.id, title, content, dateCreated: now() });
    tx.emit({ type: "saved_snippets", op: "add", saved_snippet: savedSnippetToApi(snippet) }, [user.id]);
    return snippet.id;
  });
}

export async function editSavedSnippet(user: User, id: number, input: SnippetChanges) {
  const changes: SnippetChanges = {};
  if (input.title !== undefined) changes.title = checked("Title", input.title);
  if (input.content !== undefined) changes.content = checked("Content", input.content);
  await write(async (tx) => {
    const snippet = await accessOwnSnippet(tx, user, id);
    // Nothing asked for: no spurious event.
    if (changes.title === undefined && changes.content === undefined) return;
    const updated = await updateSavedSnippet(tx, snippet.id, changes);
    tx.emit({ type: "saved_snippets", op: "update", saved_snippet: savedSnippetToApi(updated) }, [user.id]);
  });
}

export async function removeSavedSnippet(user: User, id: number) {
  await write(async (tx) => {
    const snippet = await accessOwnSnippet(tx, user, id);
    await deleteSavedSnippet(tx, snippet.id);
    tx.emit({ type: "saved_snippets", op: "remove", saved_snippet_id: snippet.id }, [user.id]);
  });
}
