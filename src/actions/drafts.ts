import { accessChannel } from "../access/channels";
import { accessUser } from "../access/users";
import { deleteDraft, findDraft, insertDrafts, replaceDraft, type DraftFields, type DraftType } from "../db/drafts";
import { write } from "../db/transaction";
import type { Reader } from "../db/types";
import { findUserById, type User } from "../db/users";
import { ApiError, badRequest } from "../http/errors";
import { normalizeContent } from "../messages/content";
import { MAX_TOPIC_LENGTH } from "../model/limits";
import { now } from "../model/clock";
import { draftToApi } from "../shapes/drafts";

/** A draft as the client sends it (reference: Draft, without id). */
export interface DraftInput {
  type: DraftType;
  to: number[];
  topic: string;
  content: string;
  timestamp?: number;
}

const draftDoesNotExist = () => new ApiError("BAD_REQUEST", "Draft does not exist", {}, { status: 404 });

/** Drafts are synchronized only for users who want it (enable_drafts_synchronization, spec 2.11). */
async function requireSynchronization(db: Reader, actor: User) {
  const settings = (await findUserById(db, actor.id))?.settings ?? actor.settings;
  if (settings.enable_drafts_synchronization === false) throw badRequest("User has disabled synchronizing drafts.");
}

/**
 * A draft as stored, checked as the reference checks it: a channel draft names exactly one
 * channel the user may reach; a direct one names users that exist; an unaddressed one keeps
 * nothing but its content. Topics are cut to the topic limit, as the reference does.
 */
async function checkDraft(db: Reader, actor: User, input: DraftInput, checked = new Checked(db, actor)): Promise<DraftFields> {
  const content = normalizeContent(input.content);
  const timestamp = input.timestamp === undefined ? now() : Math.floor(input.timestamp);
  if (timestamp < 0) throw badRequest("Timestamp must not be negative.");
  if (input.type === "stream") {
    if (input.to.length !== 1) throw badRequest("Must specify exactly 1 channel ID for channel messages");
    if (input.topic.includes("\u0000")) throw badRequest("Topic must not contain null bytes");
    const channelId = await checked.channel(input.to[0]);
    const topic = [...input.topic.trim()].slice(0, MAX_TOPIC_LENGTH).join("");
    return { type: "stream", to: [channelId], topic, content, timestamp };
  }
  const to = input.type === "private" ? [...new Set(input.to)].sort((a, b) => a - b) : [];
  for (const userId of to) await checked.user(userId);
  // A direct draft to nobody is an unaddressed draft, as in the reference.
  return { type: to.length > 0 ? "private" : "", to, topic: "", content, timestamp };
}

/**
 * Channels and people already checked for one request: a thousand drafts may name the same
 * channel, and each up to a thousand people, mostly the same ones.
 */
class Checked {
  private channels = new Map<number, number>();
  private users = new Set<number>();

  constructor(
    private readonly db: Reader,
    private readonly actor: User,
  ) {}

  /** The channel's ID, if the actor may reach it. */
  async channel(channelId: number): Promise<number> {
    let id = this.channels.get(channelId);
    if (id === undefined) this.channels.set(channelId, (id = (await accessChannel(this.db, this.actor, channelId, "content")).channel.id));
    return id;
  }

  async user(userId: number) {
    if (this.users.has(userId)) return;
    await accessUser(this.db, userId);
    this.users.add(userId);
  }
}

/** POST /drafts: all or none; the user's clients learn of them in one event. */
export function createDrafts(actor: User, inputs: DraftInput[]): Promise<number[]> {
  return write(async (tx) => {
    await requireSynchronization(tx, actor);
    const checked = new Checked(tx, actor);
    const drafts: DraftFields[] = [];
    for (const input of inputs) drafts.push(await checkDraft(tx, actor, input, checked));
    const created = (await insertDrafts(tx, actor.id, drafts)).map(draftToApi);
    if (created.length > 0) tx.emit({ type: "drafts", op: "add", drafts: created }, [actor.id]);
    return created.map((draft) => draft.id);
  });
}

/** PATCH /drafts/{id}: the draft is replaced whole. */
export async function editDraft(actor: User, draftId: number, input: DraftInput) {
  await write(async (tx) => {
    await requireSynchronization(tx, actor);
    const draft = await findDraft(tx, actor.id, draftId);
    if (!draft) throw draftDoesNotExist();
    const edited = await replaceDraft(tx, draft.id, await checkDraft(tx, actor, input));
    tx.emit({ type: "drafts", op: "update", draft: draftToApi(edited) }, [actor.id]);
  });
}

/** DELETE /drafts/{id}: allowed even with synchronization off, as in the reference. */
export async function removeDraft(actor: User, draftId: number) {
  await write(async (tx) => {
    const draft = await findDraft(tx, actor.id, draftId);
    if (!draft) throw draftDoesNotExist();
    await deleteDraft(tx, draft.id);
    tx.emit({ type: "drafts", op: "remove", draft_id: draft.id }, [actor.id]);
  });
}
