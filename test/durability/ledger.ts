/**
 * What the crash test's clients asked for and what the server acknowledged, message by
 * message, and the rules for what may be stored after a kill -9 (pure logic, no I/O).
 *
 * A change is acknowledged when the server answered 200 success; it must then survive any
 * crash. A request cut off by the kill (a connection error) is pending: it may have been
 * applied or not, but only whole. Requests on one message never overlap (one in flight at a
 * time), so each message has at most one pending change when the server dies.
 */

export interface Version {
  content: string;
  /** null for direct messages. */
  topic: string | null;
}

export type OpKind = "send" | "edit" | "delete" | "react" | "star";

export type Pending = { kind: "send" } | { kind: "edit"; to: Version } | { kind: "delete" } | { kind: "react"; key: string } | { kind: "star" };

export interface Tracked {
  /** The first word of every content this message ever has: how it is found again. */
  marker: string;
  senderId: number;
  /** The other participants of a direct message; null for a channel message. */
  directTo: number[] | null;
  /** Sent as read for its sender (read_by_sender); otherwise it is unread for them too. */
  readBySender: boolean;
  /** Known once the send is acknowledged (or the message is found after a restart). */
  id: number | null;
  /** Content and topic as last acknowledged (or seen after a restart). */
  version: Version;
  /** Stored for sure: acknowledged and not deleted since. */
  exists: boolean;
  /** Acknowledged reactions, as `${userId}:${emojiName}`. */
  reactions: Set<string>;
  /** The sender starred it (acknowledged). */
  starred: boolean;
  /** A request on this message is in flight. */
  busy: boolean;
  /** The request the kill cut off, whose outcome the check after the restart settles. */
  pending: Pending | null;
}

/** A message as the API shows it to its sender, reduced to what the ledger tracks. */
export interface Observed {
  id: number;
  senderId: number;
  version: Version;
  channelId: number | null;
  /** Every participant of a direct message (sender included), sorted; null for a channel message. */
  participants: number[] | null;
  reactions: Set<string>;
  starred: boolean;
}

export interface OpCounts {
  /** Answered 200 success. */
  acknowledged: number;
  /** Cut off by the kill. */
  pending: number;
  /** Of the pending ones, found applied after the restart. */
  appliedAfterAll: number;
  /** Answered with an error (none expected: the workload only asks for allowed changes). */
  refused: number;
}

const emptyCounts = (): OpCounts => ({ acknowledged: 0, pending: 0, appliedAfterAll: 0, refused: 0 });

export const OP_KINDS: readonly OpKind[] = ["send", "edit", "delete", "react", "star"];

export class Ledger {
  readonly messages = new Map<string, Tracked>();
  readonly counts: Record<OpKind, OpCounts> = { send: emptyCounts(), edit: emptyCounts(), delete: emptyCounts(), react: emptyCounts(), star: emptyCounts() };
  /** Answers nobody expected (refusals, connection errors before the kill), for the report. */
  readonly surprises: string[] = [];
  /** Unread message IDs per person before the test sent anything (welcome messages). */
  readonly unreadBefore = new Map<number, number[]>();
  /** Set just before the server is killed: connection errors from then on are expected. */
  killing = false;
  private serial = 0;

  /**
   * A word no other message or edit uses. Fixed width, so no token is a prefix of another
   * (search matches words by prefix).
   */
  token(prefix: "mk" | "ed" | "tp"): string {
    return `${prefix}${String(++this.serial).padStart(7, "0")}`;
  }

  track(senderId: number, directTo: number[] | null, readBySender: boolean, version: Version): Tracked {
    const marker = version.content.split(" ")[0];
    const tracked: Tracked = { marker, senderId, directTo, readBySender, id: null, version, exists: false, reactions: new Set(), starred: false, busy: true, pending: null };
    this.messages.set(marker, tracked);
    return tracked;
  }

  /** Messages no request is working on and no crash left in doubt. */
  settled(filter: (message: Tracked) => boolean): Tracked[] {
    const found: Tracked[] = [];
    for (const message of this.messages.values()) {
      if (message.exists && !message.busy && message.pending === null && filter(message)) found.push(message);
    }
    return found;
  }

  totals(): OpCounts {
    const total = emptyCounts();
    for (const kind of OP_KINDS) for (const key of Object.keys(total) as Array<keyof OpCounts>) total[key] += this.counts[kind][key];
    return total;
  }
}

const sameVersion = (a: Version, b: Version) => a.content === b.content && a.topic === b.topic;
const shown = (version: Version) => JSON.stringify(version);
const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((item) => b.has(item));

/** Whether the pending change of a message shows in what is stored. */
export function pendingApplied(message: Tracked, observed: Observed | undefined): boolean {
  const pending = message.pending;
  if (pending === null) return false;
  switch (pending.kind) {
    case "send":
      return observed !== undefined;
    case "delete":
      return observed === undefined;
    case "edit":
      return observed !== undefined && sameVersion(observed.version, pending.to) && !sameVersion(pending.to, message.version);
    case "react":
      return observed !== undefined && observed.reactions.has(pending.key);
    case "star":
      return observed !== undefined && observed.starred;
  }
}

/**
 * What is wrong with a message as stored after a restart, given what was acknowledged: an
 * acknowledged change missing (lost), something never asked for, or a pending change half
 * applied. Empty when all is well.
 */
export function judge(message: Tracked, observed: Observed | undefined): string[] {
  const label = `message ${message.marker}${message.id === null ? "" : ` (id ${message.id})`}`;
  const pending = message.pending;
  const problems: string[] = [];
  if (observed === undefined) {
    if (message.exists && pending?.kind !== "delete") problems.push(`${label}: LOST, acknowledged and never deleted, but not there`);
    return problems;
  }
  if (!message.exists && pending?.kind !== "send") {
    problems.push(`${label}: there, although ${message.id === null ? "its send was never acknowledged nor pending" : "its deletion was acknowledged"}`);
  }
  if (message.id !== null && observed.id !== message.id) problems.push(`${label}: found under id ${observed.id}`);
  if (observed.senderId !== message.senderId) problems.push(`${label}: sender ${observed.senderId}, sent by ${message.senderId}`);

  const allowed = [message.version, ...(pending?.kind === "edit" ? [pending.to] : [])];
  if (!allowed.some((version) => sameVersion(observed.version, version))) {
    problems.push(`${label}: content/topic ${shown(observed.version)}, expected ${allowed.map(shown).join(" or ")}`);
  }

  if (message.directTo === null) {
    if (observed.participants !== null) problems.push(`${label}: sent to a channel, stored as a direct message`);
  } else {
    const expected = [message.senderId, ...message.directTo].sort((a, b) => a - b);
    if (observed.participants?.join(",") !== expected.join(",")) problems.push(`${label}: participants ${observed.participants}, sent to ${expected}`);
  }

  const withPending = new Set(message.reactions);
  if (pending?.kind === "react") withPending.add(pending.key);
  if (!sameSet(observed.reactions, message.reactions) && !sameSet(observed.reactions, withPending)) {
    problems.push(`${label}: reactions [${[...observed.reactions]}], acknowledged [${[...message.reactions]}]${pending?.kind === "react" ? ` (+ pending ${pending.key})` : ""}`);
  }
  if (message.starred && !observed.starred) problems.push(`${label}: LOST star, acknowledged but not starred`);
  if (!message.starred && observed.starred && pending?.kind !== "star") problems.push(`${label}: starred, never asked`);
  return problems;
}

/** After a check: the ledger takes what is stored as the new certain state. */
export function settle(message: Tracked, observed: Observed | undefined) {
  message.pending = null;
  message.exists = observed !== undefined;
  if (observed === undefined) return;
  message.id = observed.id;
  message.version = observed.version;
  message.reactions = new Set(observed.reactions);
  message.starred = observed.starred;
}
