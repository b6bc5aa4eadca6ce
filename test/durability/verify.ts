import { ok, type Person } from "../helpers/seed";
import { judge, pendingApplied, settle, type Ledger, type Observed, type Tracked, type Version } from "./ledger";
import type { SeededRandom } from "./random";
import type { Cast } from "./workload";

/**
 * The check after a restart, through the API only: every tracked message against what its
 * sender is shown, the full-text index against the stored text, and everyone's unread
 * messages against the messages that reach them. Returns what is wrong; then the ledger
 * takes what is stored as certain, for the next round.
 */

type Narrow = Array<{ operator: string; operand: unknown }>;

/** Every message of a narrow, oldest first, with Markdown source as content. */
async function listAll(person: Person, narrow: Narrow): Promise<Array<Record<string, any>>> {
  const found: Array<Record<string, any>> = [];
  let anchor: string | number = "oldest";
  for (;;) {
    const params: Record<string, unknown> = { anchor, include_anchor: anchor === "oldest", num_before: 0, num_after: 5000, narrow, apply_markdown: false };
    const body: Record<string, any> = ok(await person.api.get("/messages", params));
    found.push(...body.messages);
    if (body.found_newest || body.messages.length === 0) return found;
    anchor = body.messages.at(-1).id;
  }
}

function observe(raw: Record<string, any>): Observed {
  const isDirect = raw.type === "private";
  return {
    id: raw.id,
    senderId: raw.sender_id,
    version: { content: raw.content, topic: isDirect ? null : raw.subject },
    channelId: raw.stream_id ?? null,
    participants: isDirect ? (raw.display_recipient as Array<{ id: number }>).map((user) => user.id).sort((a, b) => a - b) : null,
    reactions: new Set((raw.reactions as Array<{ user_id: number; emoji_name: string }>).map((reaction) => `${reaction.user_id}:${reaction.emoji_name}`)),
    starred: (raw.flags as string[]).includes("starred"),
  };
}

/** The words only this message (or one of its edits) ever had. */
const distinctiveTokens = (version: Version) => `${version.content} ${version.topic ?? ""}`.split(" ").filter((word) => /^(mk|ed|tp)\d+$/.test(word));
const words = (version: Version) => `${version.content} ${version.topic ?? ""}`.split(" ");
const sortedIds = (ids: Iterable<number>) => [...ids].sort((a, b) => a - b);

export interface CheckFigures {
  present: number;
  searches: number;
  unreadChecked: number;
}

export class Verifier {
  readonly problems: string[] = [];
  private readonly figures: CheckFigures = { present: 0, searches: 0, unreadChecked: 0 };

  constructor(
    private readonly ledger: Ledger,
    private readonly cast: Cast,
    private readonly random: SeededRandom,
  ) {}

  private problem(text: string) {
    this.problems.push(text);
  }

  async run(sampleSize: number): Promise<CheckFigures> {
    const observed = await this.observeAll();
    for (const message of this.ledger.messages.values()) {
      const seen = observed.get(message.marker);
      for (const text of judge(message, seen)) this.problem(text);
      if (pendingApplied(message, seen)) this.ledger.counts[message.pending!.kind].appliedAfterAll++;
    }
    await this.checkSearchSets(observed);
    await this.checkSearchTokens(observed, sampleSize);
    for (const message of this.ledger.messages.values()) settle(message, observed.get(message.marker));
    this.figures.present = observed.size;
    await this.checkUnread();
    return this.figures;
  }

  private sender(message: Tracked): Person {
    return this.cast.writers.find((person) => person.id === message.senderId)!;
  }

  /** Every writer's own messages, by marker; no message may be unknown or there twice. */
  private async observeAll(): Promise<Map<string, Observed>> {
    const byMarker = new Map<string, Observed>();
    for (const writer of this.cast.writers) {
      for (const raw of await listAll(writer, [{ operator: "sender", operand: writer.id }])) {
        const seen = observe(raw);
        const marker = seen.version.content.split(" ")[0];
        if (!this.ledger.messages.has(marker)) this.problem(`message ${raw.id}: never sent by the test (content ${JSON.stringify(raw.content)})`);
        else if (byMarker.has(marker)) this.problem(`message ${marker}: stored twice, ids ${byMarker.get(marker)!.id} and ${raw.id}`);
        byMarker.set(marker, seen);
      }
    }
    return byMarker;
  }

  /**
   * For each writer, the messages search finds by a word every original content has, every
   * edited content has, and every moved topic has: exactly those whose stored text has it.
   */
  private async checkSearchSets(observed: Map<string, Observed>) {
    for (const writer of this.cast.writers) {
      const own = [...observed.values()].filter((message) => message.senderId === writer.id);
      for (const word of ["orig", "edited", "moved"]) {
        const expected = sortedIds(own.filter((message) => words(message.version).includes(word)).map((message) => message.id));
        const found = sortedIds((await listAll(writer, [{ operator: "sender", operand: writer.id }, { operator: "search", operand: word }])).map((raw) => raw.id));
        this.figures.searches++;
        this.compareIds(`search "${word}" by ${writer.email}`, found, expected);
      }
    }
  }

  /**
   * Search by the words unique to one message: those of its stored version find it, those of
   * the version it does not have (the other side of a pending edit) do not. Every message a
   * crash left in doubt, and a sample of the others.
   */
  private async checkSearchTokens(observed: Map<string, Observed>, sampleSize: number) {
    const doubtful = [...this.ledger.messages.values()].filter((message) => message.pending !== null);
    const others = [...this.ledger.messages.values()].filter((message) => message.pending === null && observed.has(message.marker));
    const sample = Array.from({ length: Math.min(sampleSize, others.length) }, () => this.random.pick(others));
    for (const message of [...doubtful, ...sample]) {
      const seen = observed.get(message.marker);
      const candidates = [message.version, ...(message.pending?.kind === "edit" ? [message.pending.to] : [])];
      const present = new Set(seen ? distinctiveTokens(seen.version) : []);
      const absent = new Set(candidates.flatMap(distinctiveTokens).filter((token) => !present.has(token)));
      for (const [tokens, expected] of [
        [present, seen ? [seen.id] : []],
        [absent, []],
      ] as const) {
        for (const token of tokens) {
          const found = (await listAll(this.sender(message), [{ operator: "search", operand: token }])).map((raw) => raw.id);
          this.figures.searches++;
          this.compareIds(`search "${token}" (message ${message.marker}${message.pending ? `, pending ${message.pending.kind}` : ""})`, sortedIds(found), [...expected]);
        }
      }
    }
  }

  /**
   * Nobody reads anything in this test, so each person's unread messages are exactly the
   * stored messages that reach them (their own ones unless sent as read by sender), with
   * their current topic, plus what was unread before the test began.
   */
  private async checkUnread() {
    const stored = [...this.ledger.messages.values()].filter((message) => message.exists);
    const byId = new Map(stored.map((message) => [message.id!, message]));
    for (const person of [...this.cast.writers, this.cast.reader]) {
      const unreadFor = (message: Tracked) =>
        message.senderId === person.id ? !message.readBySender : message.directTo === null || message.directTo.includes(person.id);
      const expected = sortedIds([...(this.ledger.unreadBefore.get(person.id) ?? []), ...stored.filter(unreadFor).map((message) => message.id!)]);
      const unread = await unreadMessages(person);
      const found = sortedIds([...unread.streams, ...unread.pms, ...unread.huddles].flatMap((entry) => entry.unread_message_ids));
      this.figures.unreadChecked += found.length;
      this.compareIds(`unread messages of ${person.email}`, found, expected);
      if (unread.count !== expected.length) this.problem(`unread count of ${person.email}: ${unread.count}, expected ${expected.length}`);
      for (const entry of unread.streams) {
        for (const id of entry.unread_message_ids) {
          const message = byId.get(id);
          if (message && (entry.stream_id !== this.cast.channelId || entry.topic !== message.version.topic)) {
            this.problem(`unread message ${id} of ${person.email} listed under ${entry.stream_id}/${entry.topic}, stored in ${this.cast.channelId}/${message.version.topic}`);
          }
        }
      }
    }
  }

  private compareIds(what: string, found: number[], expected: number[]) {
    const expectedSet = new Set(expected);
    const foundSet = new Set(found);
    const missing = expected.filter((id) => !foundSet.has(id));
    const extra = found.filter((id) => !expectedSet.has(id));
    const duplicated = found.length !== foundSet.size;
    if (missing.length > 0 || extra.length > 0 || duplicated) {
      this.problem(`${what}: missing [${missing.slice(0, 20)}], unexpected [${extra.slice(0, 20)}]${duplicated ? ", some twice" : ""}`);
    }
  }
}

interface UnreadMsgs {
  count: number;
  streams: Array<{ stream_id: number; topic: string; unread_message_ids: number[] }>;
  pms: Array<{ unread_message_ids: number[] }>;
  huddles: Array<{ unread_message_ids: number[] }>;
}

/** unread_msgs as POST /register gives it (the queue it makes is deleted again). */
export async function unreadMessages(person: Person): Promise<UnreadMsgs> {
  const state = ok(await person.api.post("/register", { fetch_event_types: ["update_message_flags"], event_types: ["heartbeat"] }));
  ok(await person.api.delete("/events", { queue_id: state.queue_id }));
  return state.unread_msgs;
}

/** Each person's unread messages before the test: they must stay as they are. */
export async function recordUnreadBefore(ledger: Ledger, people: Person[]) {
  for (const person of people) {
    const unread = await unreadMessages(person);
    ledger.unreadBefore.set(person.id, [...unread.streams, ...unread.pms, ...unread.huddles].flatMap((entry) => entry.unread_message_ids));
  }
}
