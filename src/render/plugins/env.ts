/** State one render threads through markdown-it's `env`: lookups in, findings out. */
import type { Env } from "markdown-it";
import type { RenderContext } from "../context";
import type { LinkBudget } from "../linkifiers";

export type MentionTarget =
  | { kind: "user"; id: number }
  | { kind: "group"; id: number }
  | { kind: "wildcard"; scope: "channel" | "topic" };

/** meta of a "mention" token. `silent` may be set later (mentions inside quotes). */
export interface MentionMeta {
  target: MentionTarget;
  name: string;
  silent: boolean;
}

export interface RenderFindings {
  mentionedUserIds: Set<number>;
  silentlyMentionedUserIds: Set<number>;
  mentionedGroupIds: Set<number>;
  channelWildcard: boolean;
  topicWildcard: boolean;
  hasLink: boolean;
  hasImage: boolean;
  /** Path IDs of the uploads the message links (plugins/inlineImages.ts). */
  attachmentPathIds: Set<string>;
}

export interface RenderEnv extends Env {
  context: RenderContext;
  linkBudget: LinkBudget;
  findings: RenderFindings;
}

export function renderEnv(env: unknown): RenderEnv {
  return env as RenderEnv;
}

/** Runs a sticky pattern at `position`, refusing matches that run past `limit`. */
export function matchAt(
  pattern: RegExp,
  src: string,
  position: number,
  limit: number,
): RegExpExecArray | null {
  pattern.lastIndex = position;
  const match = pattern.exec(src);
  return match && position + match[0].length <= limit ? match : null;
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/** Escapes text for HTML content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (ch) => HTML_ESCAPES[ch]!);
}
