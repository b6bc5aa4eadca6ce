import { api } from "../../../ui/api";
import { toast, toastError } from "../../../ui/components";
import { conversationOf } from "../../model/narrow";
import type { Message } from "../../model/types";
import { hashOf } from "../../state/place";
import { me } from "../../state/store";

/**
 * What the message actions ask of the server. Each only asks: the event that follows changes
 * the state, so every open client shows the same thing. A refusal becomes a toast.
 */

export interface EmojiRef {
  name: string;
  code: string;
  type: string;
}

export async function setReaction(messageId: number, emoji: EmojiRef, add: boolean) {
  try {
    await api(add ? "POST" : "DELETE", `/messages/${messageId}/reactions`, { emoji_name: emoji.name, emoji_code: emoji.code, reaction_type: emoji.type });
  } catch (error) {
    toastError(error);
  }
}

/** From the picker: an emoji I already reacted with is taken back, as in Zulip. */
export function toggleReaction(message: Message, emoji: EmojiRef) {
  const mine = message.reactions.some((reaction) => reaction.user_id === me.value.userId && reaction.emoji_code === emoji.code && reaction.emoji_name === emoji.name);
  return setReaction(message.id, emoji, !mine);
}

export const isStarred = (message: Message) => message.flags.includes("starred");

export async function setStarred(message: Message, starred: boolean) {
  try {
    await api("POST", "/messages/flags", { messages: [message.id], op: starred ? "add" : "remove", flag: "starred" });
  } catch (error) {
    toastError(error);
  }
}

/** The message's address: its conversation, opened at it. */
export const messageLink = (message: Message) => `${location.origin}/${hashOf(conversationOf(message, me.value.userId), message.id)}`;

export async function copyLink(message: Message) {
  try {
    await navigator.clipboard.writeText(messageLink(message));
    toast("Link copied");
  } catch {
    toast("Could not copy the link", true);
  }
}

export async function deleteMessage(messageId: number): Promise<boolean> {
  try {
    await api("DELETE", `/messages/${messageId}`);
    return true;
  } catch (error) {
    toastError(error);
    return false;
  }
}
