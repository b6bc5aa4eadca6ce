import { signal } from "@preact/signals";
import { useLayoutEffect, useRef } from "preact/hooks";
import { toastError } from "../../../ui/components";
import { messages } from "../../state/messages";
import { toggleReaction } from "./actions";
import { placeBeside } from "./popover";

/**
 * The emoji picker for reactions: one for the whole view, opened beside the button that asked
 * for it. The picker's code is fetched the first time it is opened (its own chunk), so the
 * chat's first load does not carry it.
 */

type Picker = (typeof import("../../emoji/EmojiPicker"))["default"];

export const pickerFor = signal<{ messageId: number; anchor: HTMLElement } | null>(null);
const pickerLoaded = signal<Picker | null>(null);

export function openReactionPicker(messageId: number, anchor: HTMLElement) {
  if (pickerFor.value?.messageId === messageId) {
    pickerFor.value = null;
    return;
  }
  pickerFor.value = { messageId, anchor };
  if (!pickerLoaded.value)
    import("../../emoji/EmojiPicker").then(
      (module) => (pickerLoaded.value = module.default),
      (error: unknown) => {
        pickerFor.value = null;
        toastError(error);
      },
    );
}

function close(refocus: boolean) {
  const anchor = pickerFor.value?.anchor;
  pickerFor.value = null;
  if (refocus && anchor?.isConnected) anchor.focus();
}

export function ReactionPickerHost() {
  const open = pickerFor.value;
  const Picker = pickerLoaded.value;
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (open && box.current) placeBeside(box.current, open.anchor);
  }, [open, Picker]);
  if (!open || !Picker) return null;
  return (
    <div class="floating reaction-picker" ref={box}>
      <Picker
        onPick={(choice) => {
          const message = messages.get(open.messageId);
          close(true);
          if (message) void toggleReaction(message, choice);
        }}
        onClose={() => close(true)}
      />
    </div>
  );
}
