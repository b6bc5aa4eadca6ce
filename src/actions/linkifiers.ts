import { requireAdministrator } from "../access/users";
import { deleteLinkifier, findLinkifier, findLinkifierByPattern, insertLinkifier, listLinkifiers, setLinkifierOrder, updateLinkifier } from "../db/linkifiers";
import { write } from "../db/transaction";
import type { Tx } from "../db/types";
import { activeUserIds, type User } from "../db/users";
import { badRequest } from "../http/errors";
import { validateLinkifier } from "../render/linkifiers";
import { linkifierToApi } from "../shapes/linkifiers";

/** Linkifiers (spec 2.8, 4.17): organization administrators manage one ordered list. */

export interface LinkifierInput {
  pattern: string;
  urlTemplate: string;
}

/** Validation compiles the pattern, which is the slow part: done before the transaction opens. */
function checkDefinition(input: LinkifierInput) {
  const problem = validateLinkifier(input.pattern, input.urlTemplate);
  if (problem) throw badRequest(problem);
}

function checkPatternFree(tx: Tx, pattern: string, exceptId?: number) {
  const holder = findLinkifierByPattern(tx, pattern);
  if (holder && holder.id !== exceptId) throw badRequest("Linkifier with this pattern already exists.");
}

function accessLinkifier(tx: Tx, id: number) {
  const linkifier = findLinkifier(tx, id);
  if (!linkifier) throw badRequest("Linkifier not found.");
  return linkifier;
}

/** Everyone gets the whole new list (clients replace theirs); filters.ts keeps it from clients without linkifier_url_template. */
function announceLinkifiers(tx: Tx) {
  tx.emit({ type: "realm_linkifiers", realm_linkifiers: listLinkifiers(tx).map(linkifierToApi) }, activeUserIds(tx));
}

export function addLinkifier(actor: User, input: LinkifierInput): number {
  requireAdministrator(actor, "manage linkifiers");
  checkDefinition(input);
  return write((tx) => {
    checkPatternFree(tx, input.pattern);
    const linkifier = insertLinkifier(tx, input.pattern, input.urlTemplate);
    announceLinkifiers(tx);
    return linkifier.id;
  });
}

export function editLinkifier(actor: User, id: number, input: LinkifierInput) {
  requireAdministrator(actor, "manage linkifiers");
  checkDefinition(input);
  write((tx) => {
    accessLinkifier(tx, id);
    checkPatternFree(tx, input.pattern, id);
    updateLinkifier(tx, id, input.pattern, input.urlTemplate);
    announceLinkifiers(tx);
  });
}

export function removeLinkifier(actor: User, id: number) {
  requireAdministrator(actor, "manage linkifiers");
  write((tx) => {
    accessLinkifier(tx, id);
    deleteLinkifier(tx, id);
    announceLinkifiers(tx);
  });
}

/** PATCH /realm/linkifiers: the new order must name every linkifier exactly once. */
export function reorderLinkifiers(actor: User, orderedIds: number[]) {
  requireAdministrator(actor, "manage linkifiers");
  write((tx) => {
    if (new Set(orderedIds).size !== orderedIds.length) throw badRequest("The ordered list must not contain duplicated linkifiers");
    const existing = new Set(listLinkifiers(tx).map((linkifier) => linkifier.id));
    if (existing.size !== orderedIds.length || orderedIds.some((id) => !existing.has(id))) {
      throw badRequest("The ordered list must enumerate all existing linkifiers exactly once");
    }
    setLinkifierOrder(tx, orderedIds);
    announceLinkifiers(tx);
  });
}
