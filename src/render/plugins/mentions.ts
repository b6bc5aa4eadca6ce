/**
 * User, wildcard and group mentions. Unknown or ambiguous names are not mentions: the text is
 * left to the other rules (so `@**Nobody**` shows as "@" and bold "Nobody", as in Zulip).
 */
import type { MarkdownIt, StateInline, Token } from "markdown-it";
import type { RenderContext } from "../context";
import { GROUP_MENTION, parseUserMention, startsAfterBoundary, USER_MENTION } from "../syntax";
import { escapeHtml, matchAt, renderEnv, type MentionMeta } from "./env";

function resolveUserMention(context: RenderContext, text: string, silent: boolean): MentionMeta | null {
  const target = parseUserMention(text);
  if (target.kind === "wildcard") return { target, name: text, silent };
  let user;
  if (target.kind === "id") {
    user = context.findUserById(target.id);
    // `@**Name|id**` must name that very user, so a stale or forged pair mentions nobody.
    if (user && target.fullName !== null && user.fullName !== target.fullName) return null;
  } else {
    const users = context.findUsersByName(target.name);
    user = users.length === 1 ? users[0] : undefined;
  }
  if (!user) return null;
  return {
    target: { kind: "user", id: user.id },
    name: user.fullName,
    silent: silent || user.isActive === false,
  };
}

function resolveGroupMention(context: RenderContext, name: string, silent: boolean): MentionMeta | null {
  const group = context.findGroupByName(name);
  if (!group) return null;
  return {
    target: { kind: "group", id: group.id },
    name: group.name,
    silent: silent || group.deactivated === true,
  };
}

function mentionRule(
  pattern: RegExp,
  resolve: (context: RenderContext, name: string, silent: boolean) => MentionMeta | null,
) {
  return (state: StateInline, silent: boolean): boolean => {
    const position = state.pos;
    if (state.src.charCodeAt(position) !== 0x40 /* @ */) return false;
    if (!startsAfterBoundary(state.src, position)) return false;
    const match = matchAt(pattern, state.src, position, state.posMax);
    if (!match) return false;
    const meta = resolve(renderEnv(state.env).context, match[2]!, match[1] === "_");
    if (!meta) return false;
    if (!silent) state.push("mention", "span", 0).meta = meta as unknown as Record<string, unknown>;
    state.pos += match[0].length;
    return true;
  };
}

function renderMention(tokens: Token[], index: number): string {
  const { target, name, silent } = tokens[index]!.meta as unknown as MentionMeta;
  const text = escapeHtml(silent ? name : `@${name}`);
  const quiet = silent ? " silent" : "";
  switch (target.kind) {
    case "user":
      return `<span class="user-mention${quiet}" data-user-id="${target.id}">${text}</span>`;
    case "group":
      return `<span class="user-group-mention${quiet}" data-user-group-id="${target.id}">${text}</span>`;
    case "wildcard":
      return target.scope === "channel"
        ? `<span class="user-mention channel-wildcard-mention${quiet}" data-user-id="*">${text}</span>`
        : `<span class="topic-mention${quiet}">${text}</span>`;
  }
}

export function mentionsPlugin(md: MarkdownIt): void {
  md.inline.ruler.before("emphasis", "user_mention", mentionRule(USER_MENTION, resolveUserMention));
  md.inline.ruler.after("user_mention", "group_mention", mentionRule(GROUP_MENTION, resolveGroupMention));
  md.renderer.rules.mention = renderMention;
}
