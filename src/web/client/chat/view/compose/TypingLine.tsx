import type { Destination } from "../../state/echo";
import { me, userName, userSettings } from "../../state/store";
import { dmTypingKey, topicTypingKey, typing } from "../../state/typing";

/** "Mel Member is typing…", "Mel Member and Max Member are typing…", and so on. */
export function typingSentence(names: string[]): string {
  if (names.length === 0) return "";
  if (names.length === 1) return `${names[0]} is typing…`;
  if (names.length <= 3) return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]} are typing…`;
  return "Several people are typing…";
}

/**
 * Who else is typing where the box is aimed. The region is always there, empty when nobody
 * types, so screen readers announce the line as it changes.
 */
export function TypingLine(props: { destination: Destination | null }) {
  const { destination } = props;
  let sentence = "";
  if (destination && userSettings.value.receives_typing_notifications !== false) {
    const myId = me.value.userId;
    const key = destination.type === "stream" ? topicTypingKey(destination.channelId, destination.topic) : dmTypingKey(destination.userIds, myId);
    const people = [...(typing.value.get(key) ?? [])].filter((id) => id !== myId);
    sentence = typingSentence(people.map((id) => userName(id) ?? "Someone"));
  }
  return (
    <div class="compose-typing" aria-live="polite">
      {sentence}
    </div>
  );
}
