import { EmojiGlyph } from "../../emoji/glyph";
import type { Message } from "../../model/types";
import { me, userName } from "../../state/store";
import { setReaction } from "./actions";
import { groupReactions, reactionLabel, reactionTitle } from "./reactionGroups";
import { openReactionPicker } from "./ReactionPicker";

/** The reactions under a message: one toggle per emoji with its count, and "+" for another. */
export function Reactions({ message }: { message: Message }) {
  const myId = me.value.userId;
  const groups = groupReactions(message.reactions, myId);
  if (groups.length === 0) return null;
  return (
    <div class="reactions" role="group" aria-label="Reactions">
      {groups.map((group) => (
        <button
          key={group.key}
          type="button"
          class="reaction"
          aria-pressed={group.mine}
          aria-label={reactionLabel(group)}
          title={reactionTitle(group, myId, userName)}
          onClick={() => void setReaction(message.id, group, !group.mine)}
        >
          <EmojiGlyph name={group.name} code={group.code} type={group.type} />
          <span class="reaction-count">{group.userIds.length}</span>
        </button>
      ))}
      <button type="button" class="reaction reaction-add" aria-label="Add a reaction" title="Add a reaction" onClick={(event) => openReactionPicker(message.id, event.currentTarget)}>
        +
      </button>
    </div>
  );
}
