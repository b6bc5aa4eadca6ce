import type { ApiResponse } from "../helpers/client";
import type { Person } from "../helpers/seed";
import { type Ledger, type OpKind, type Tracked, type Version } from "./ledger";
import { SeededRandom } from "./random";

/**
 * The crash test's clients: several people, each with a few lanes of requests in flight at
 * once, sending (in bursts, so sends arrive together and share a group commit), editing and
 * deleting their own messages, reacting and starring, until the server is killed.
 */

export interface Cast {
  /** People who send, edit, delete, react and star. */
  writers: Person[];
  /** Someone who only receives (and never reads): every message reaches them. */
  reader: Person;
  channelName: string;
  channelId: number;
}

export const TOPICS = ["topic0", "topic1", "topic2", "topic3", "topic4"];
export const EMOJIS = ["octopus", "tada", "heart"];

const OP_WEIGHTS: Array<[OpKind, number]> = [
  ["send", 45],
  ["edit", 25],
  ["delete", 10],
  ["react", 10],
  ["star", 10],
];

type Outcome = "acknowledged" | "refused" | "cut";

export class Workload {
  constructor(
    private readonly ledger: Ledger,
    private readonly cast: Cast,
    private readonly seed: number,
  ) {}

  /**
   * Runs every writer's lanes until the ledger says the server is being killed. Each lane
   * draws from a random source of its own, seeded by the run's seed, the round and the lane,
   * so its choices do not depend on how the lanes interleave.
   */
  async runUntilKilled(round: number, lanesPerWriter: number): Promise<void> {
    const lanes: Array<Promise<void>> = [];
    let lane = 0;
    for (const writer of this.cast.writers) {
      for (let i = 0; i < lanesPerWriter; i++) lanes.push(this.lane(writer, new SeededRandom(laneSeed(this.seed, round, ++lane))));
    }
    await Promise.all(lanes);
  }

  /**
   * Sends from everyone at once, without waiting between them: fired just before the kill,
   * they make sure it lands while the server is storing a batch of sends (group commit),
   * even when the lanes happen to be between requests.
   */
  async burst(round: number, count: number): Promise<void> {
    const random = new SeededRandom(laneSeed(this.seed, round, 0));
    await Promise.all(Array.from({ length: count }, () => this.send(random.pick(this.cast.writers), random)));
  }

  private async lane(writer: Person, random: SeededRandom) {
    while (!this.ledger.killing) await this.step(writer, random);
  }

  private pickOp(random: SeededRandom): OpKind {
    let roll = random.int(OP_WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0));
    for (const [kind, weight] of OP_WEIGHTS) {
      if (roll < weight) return kind;
      roll -= weight;
    }
    return "send";
  }

  private async step(writer: Person, random: SeededRandom) {
    const kind = this.pickOp(random);
    if (kind === "edit" && (await this.edit(writer, random))) return;
    if (kind === "delete" && (await this.remove(writer, random))) return;
    if (kind === "react" && (await this.react(writer, random))) return;
    if (kind === "star" && (await this.star(writer, random))) return;
    await this.sendBurst(writer, random);
  }

  /** One to six sends at once. */
  private async sendBurst(writer: Person, random: SeededRandom) {
    const count = random.between(1, 6);
    await Promise.all(Array.from({ length: count }, () => this.send(writer, random)));
  }

  private async send(writer: Person, random: SeededRandom) {
    const marker = this.ledger.token("mk");
    const content = `${marker} orig`;
    const readBySender = random.chance(0.5);
    let message: Tracked;
    let params: Record<string, unknown>;
    if (random.chance(0.7)) {
      const topic = random.pick(TOPICS);
      message = this.ledger.track(writer.id, null, readBySender, { content, topic });
      params = { type: "channel", to: this.cast.channelName, topic, content, read_by_sender: readBySender };
    } else {
      const others = this.cast.writers.filter((person) => person.id !== writer.id);
      const directTo = random.chance(0.5) ? [this.cast.reader.id] : [this.cast.reader.id, random.pick(others).id];
      message = this.ledger.track(writer.id, directTo, readBySender, { content, topic: null });
      params = { type: "direct", to: directTo, content, read_by_sender: readBySender };
    }
    const outcome = await this.attempt("send", message, () => writer.api.post("/messages", params), (body) => {
      message.id = body.id;
      message.exists = true;
    });
    if (outcome === "cut") message.pending = { kind: "send" };
  }

  private async edit(writer: Person, random: SeededRandom): Promise<boolean> {
    const candidates = this.ledger.settled((message) => message.senderId === writer.id);
    if (candidates.length === 0) return false;
    const message = random.pick(candidates);
    const isChannel = message.directTo === null;
    const mode = !isChannel ? "content" : random.pick(["content", "content", "topic", "both"] as const);
    const to: Version = { ...message.version };
    const params: Record<string, unknown> = { send_notification_to_old_thread: false, send_notification_to_new_thread: false };
    if (mode !== "topic") to.content = params.content = `${message.marker} edited ${this.ledger.token("ed")}`;
    if (mode !== "content") to.topic = params.topic = `moved ${this.ledger.token("tp")}`;
    const outcome = await this.attempt("edit", message, () => writer.api.patch(`/messages/${message.id}`, params), () => {
      message.version = to;
    });
    if (outcome === "cut") message.pending = { kind: "edit", to };
    return true;
  }

  private async remove(writer: Person, random: SeededRandom): Promise<boolean> {
    const candidates = this.ledger.settled((message) => message.senderId === writer.id);
    if (candidates.length === 0) return false;
    const message = random.pick(candidates);
    const outcome = await this.attempt("delete", message, () => writer.api.delete(`/messages/${message.id}`), () => {
      message.exists = false;
    });
    if (outcome === "cut") message.pending = { kind: "delete" };
    return true;
  }

  /** A reaction on someone's channel message (everyone sees the channel). */
  private async react(writer: Person, random: SeededRandom): Promise<boolean> {
    const unused = (message: Tracked) => EMOJIS.filter((emoji) => !message.reactions.has(`${writer.id}:${emoji}`));
    const candidates = this.ledger.settled((message) => message.directTo === null && unused(message).length > 0);
    if (candidates.length === 0) return false;
    const message = random.pick(candidates);
    const emoji = random.pick(unused(message));
    const key = `${writer.id}:${emoji}`;
    const outcome = await this.attempt("react", message, () => writer.api.post(`/messages/${message.id}/reactions`, { emoji_name: emoji }), () => {
      message.reactions.add(key);
    });
    if (outcome === "cut") message.pending = { kind: "react", key };
    return true;
  }

  private async star(writer: Person, random: SeededRandom): Promise<boolean> {
    const candidates = this.ledger.settled((message) => message.senderId === writer.id && !message.starred);
    if (candidates.length === 0) return false;
    const message = random.pick(candidates);
    const request = () => writer.api.post("/messages/flags", { messages: [message.id], op: "add", flag: "starred" });
    const outcome = await this.attempt("star", message, request, () => {
      message.starred = true;
    });
    if (outcome === "cut") message.pending = { kind: "star" };
    return true;
  }

  /**
   * Sends one request on a message that is marked busy meanwhile, and records its outcome;
   * `acknowledged` updates the ledger only on 200 success.
   */
  private async attempt(kind: OpKind, message: Tracked, request: () => Promise<ApiResponse>, acknowledged: (body: Record<string, any>) => void): Promise<Outcome> {
    message.busy = true;
    const counts = this.ledger.counts[kind];
    try {
      let response: ApiResponse;
      try {
        response = await request();
      } catch (error) {
        counts.pending++;
        if (!this.ledger.killing) this.ledger.surprises.push(`${kind} ${message.marker}: ${(error as Error).message} before the kill`);
        return "cut";
      }
      if (response.status === 200 && response.body.result === "success") {
        acknowledged(response.body);
        counts.acknowledged++;
        return "acknowledged";
      }
      counts.refused++;
      this.ledger.surprises.push(`${kind} ${message.marker} refused: ${response.status} ${JSON.stringify(response.body)}`);
      return "refused";
    } finally {
      message.busy = false;
    }
  }
}

/** A lane's seed: the run's, mixed with the round and the lane's number. */
const laneSeed = (seed: number, round: number, lane: number) => (seed ^ Math.imul(round, 0x9e3779b1) ^ Math.imul(lane, 0x85ebca6b)) >>> 0;
