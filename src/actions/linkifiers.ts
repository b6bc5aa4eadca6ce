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

async function checkPatternFree(tx: Tx, pattern: string, exceptId?: number) {
  const holder = await findLinkifierByPattern(tx, pattern);
  if (holder && holder.id !== exceptId) throw badRequest("Linkifier with this pattern already exists.");
}

async function accessLinkifier(tx: Tx, id: number) {
  const linkifier = await findLinkifier(tx, id);
  if (!linkifier) throw badRequest("Linkifier not found.");
  return linkifier;
}

/** Everyone gets the whole new list (clients replace theirs); filters.ts keeps it from clients without linkifier_url_template. */
async function announceLinkifiers(tx: Tx) {
  tx.emit({ type: "realm_linkifiers", realm_linkifiers: (await listLinkifiers(tx)).map(linkifierToApi) }, await activeUserIds(tx));
}

export async function addLinkifier(actor: User, input: LinkifierInput): Promise<number> {
  requireAdministrator(actor, "manage linkifiers");
  checkDefinition(input);
  return write(async (tx) => {
    await checkPatternFree(tx, input.pattern);
    const linkifier = await insertLinkifier(tx, input.pattern, input.urlTemplate);
    await announceLinkifiers(tx);
    return linkifier.id;
  });
}

export async function editLinkifier(actor: User, id: number, input: LinkifierInput) {
  requireAdministrator(actor, "manage linkifiers");
  checkDefinition(input);
  await write(async (tx) => {
    await accessLinkifier(tx, id);
    await checkPatternFree(tx, input.pattern, id);
    await updateLinkifier(tx, id, input.pattern, input.urlTemplate);
    await announceLinkifiers(tx);
  });
}

export async function removeLinkifier(actor: User, id: number) {
  requireAdministrator(actor, "manage linkifiers");
  await write(async (tx) => {
    await accessLinkifier(tx, id);
    await deleteLinkifier(tx, id);
    await announceLinkifiers(tx);
  });
}

/** PATCH /realm/linkifiers: the new order must name every linkifier exactly once. */
export async function reorderLinkifiers(actor: User, orderedIds: number[]) {
  requireAdministrator(actor, "manage linkifiers");
  await write(async (tx) => {
    if (new Set(orderedIds).size !== orderedIds.length) throw badRequest("The ordered list must not contain duplicated linkifiers");
    const existing = new Set((await listLinkifiers(tx)).map((linkifier) => linkifier.id));
    if (existing.size !== orderedIds.length || orderedIds.some((id) => !existing.has(id))) {
      throw badRequest("The ordered list must enumerate all existing linkifiers exactly once");
    }
    await setLinkifierOrder(tx, orderedIds);
    await announceLinkifiers(tx);
  });
}
