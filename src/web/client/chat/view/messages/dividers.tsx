import type { JSX } from "preact";
import { messageDmPeople } from "../../model/narrow";
import type { Message } from "../../model/types";
import { hashOf } from "../../state/place";
import { channelName, me, subscriptions, topicLabel, userName } from "../../state/store";
import { dayLabel } from "./time";

/** What goes between rows: the day's divider, and where a new conversation starts, its header. */

export function DayDivider({ timestamp }: { timestamp: number }) {
  return (
    <div class="day-divider">
      <span>{dayLabel(timestamp)}</span>
    </div>
  );
}

/** "You and Mel Member, Max Member"; just "You" in notes to self. Names are text, never HTML. */
export function dmHeaderLabel(message: Message, myId: number): string {
  const people = messageDmPeople(message, myId);
  if (people.length === 1 && people[0] === myId) return "You (notes to self)";
  const listed = Array.isArray(message.display_recipient) ? message.display_recipient : [];
  const names = people.map((id) => userName(id) ?? listed.find((person) => person.id === id)?.full_name ?? "Unknown person");
  return `You and ${names.join(", ")}`;
}

export function RecipientHeader({ message }: { message: Message }) {
  const myId = me.value.userId;
  if (message.type === "stream" && message.stream_id !== undefined) {
    const channelId = message.stream_id;
    const name = channelName(channelId) ?? (typeof message.display_recipient === "string" ? message.display_recipient : "unknown channel");
    const colour = subscriptions.value.get(channelId)?.color;
    const style = (colour ? { "--channel-colour": colour } : {}) as JSX.CSSProperties;
    return (
      <h3 class="recipient-header" style={style}>
        <a class="rh-channel" href={hashOf({ kind: "channel", channelId })}>
          #{name}
        </a>
        <span class="rh-sep" aria-hidden="true">
          ›
        </span>
        <a class="rh-topic" href={hashOf({ kind: "channel", channelId, topic: message.subject })}>
          {message.subject === "" ? <em>{topicLabel("")}</em> : message.subject}
        </a>
      </h3>
    );
  }
  return (
    <h3 class="recipient-header dm">
      <a class="rh-dm" href={hashOf({ kind: "dm", userIds: messageDmPeople(message, myId) })}>
        {dmHeaderLabel(message, myId)}
      </a>
    </h3>
  );
}
