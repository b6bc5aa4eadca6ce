import type { Linkifier } from "../db/linkifiers";

export interface ApiLinkifier {
  pattern: string;
  url_template: string;
  id: number;
}

export const linkifierToApi = (row: Linkifier): ApiLinkifier => ({ pattern: row.pattern, url_template: row.urlTemplate, id: row.id });
