import { realmEmoji } from "../state/store";
import { emojiChar, ownOriginUrl } from "./data";

/**
 * One emoji as reactions and statuses carry it (name, code, reaction type): the character for
 * Unicode, the organization's image for its own emoji, a badge for the built-in "zulip".
 * Answers name the extra type `svc_extra_emoji`; clients may send it as `zulip_extra_emoji`.
 */
export function EmojiGlyph(props: { name: string; code: string; type: string }) {
  const label = props.name.replace(/_/g, " ");
  if (props.type === "realm_emoji") {
    // Deactivated emoji keep their image for the reactions and statuses that already use them.
    const custom = realmEmoji.value[props.code];
    if (custom) return <img class="emoji emoji-image" src={ownOriginUrl(custom.source_url)} alt={`:${props.name}:`} draggable={false} />;
  } else if (props.type === "zulip_extra_emoji" || props.type === "svc_extra_emoji") {
    return (
      <span class="emoji emoji-zulip" role="img" aria-label={label}>
        Z
      </span>
    );
  } else {
    const char = emojiChar(props.code);
    if (char) {
      return (
        <span class="emoji" role="img" aria-label={label}>
          {char}
        </span>
      );
    }
  }
  return <span class="emoji emoji-missing">:{props.name}:</span>;
}
