import type { ApiSavedSnippet } from "../../shapes/savedSnippets";

/** Saved snippet changes, for the owner's own clients only. */
export type SavedSnippetsEvent =
  | { type: "saved_snippets"; op: "add" | "update"; saved_snippet: ApiSavedSnippet }
  | { type: "saved_snippets"; op: "remove"; saved_snippet_id: number };
