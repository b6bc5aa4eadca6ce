import type { SavedSnippet } from "../db/savedSnippets";

export interface ApiSavedSnippet {
  id: number;
  title: string;
  content: string;
  date_created: number;
}

export const savedSnippetToApi = (row: SavedSnippet): ApiSavedSnippet => ({ id: row.id, title: row.title, content: row.content, date_created: row.dateCreated });
