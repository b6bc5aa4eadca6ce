import { requireAdministrator } from "../access/users";
import { findLinkifier, linkifierDefinitions } from "../db/linkifiers";
import { getRealm } from "../db/realm";
import { read } from "../db/transaction";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";
import { createRenderContext } from "../render/context";
import { compileLinkifier, findLinkifierMatches, validateLinkifier, type LinkifierDefinition } from "../render/linkifiers";
import { renderMessage } from "../render/markdown";

export interface LinkifierPreviewInput {
  pattern: string;
  url_template: string;
  text: string;
  /** The linkifier being edited: the candidate takes its place in the list instead of going last. */
  filter_id?: number;
}

/**
 * POST /realm/filters/test (Parley addition): what a linkifier would do before it is saved.
 * `matches` are the candidate's own matches in the text; `rendered` is the text rendered as a
 * message by the message renderer, with the candidate where saving would put it among the
 * organization's linkifiers (earlier ones win overlaps, code is never linked).
 */
export function previewLinkifier(viewer: User, input: LinkifierPreviewInput) {
  requireAdministrator(viewer, "manage linkifiers");
  const problem = validateLinkifier(input.pattern, input.url_template);
  if (problem) throw badRequest(problem);
  const candidate: LinkifierDefinition = { pattern: input.pattern, urlTemplate: input.url_template };
  const matches = findLinkifierMatches(input.text, compileLinkifier(candidate)).map(({ text, url }) => ({ text, url }));
  return read(async (db) => {
    if (input.filter_id !== undefined && !(await findLinkifier(db, input.filter_id))) throw badRequest("Linkifier not found.");
    const saved = await linkifierDefinitions(db);
    const list = input.filter_id === undefined ? [...saved, candidate] : saved.map((each) => (each.id === input.filter_id ? { ...candidate, id: each.id } : each));
    const realm = await getRealm(db);
    const context = createRenderContext({ linkifiers: list, realmUrl: realm.url, emptyTopicDisplayName: realm.settings.empty_topic_display_name });
    const rendered = input.text.trim() === "" ? "" : renderMessage(input.text, context).html;
    return { matches, rendered };
  });
}
