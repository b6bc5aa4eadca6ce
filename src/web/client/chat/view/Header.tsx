import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { Icon } from "../../ui/icons";
import type { Narrow } from "../model/narrow";
import type { Channel } from "../model/types";
import { goTo } from "../state/place";
import { channels } from "../state/store";
import { narrowTitle } from "./narrowTitle";
import { searchFocus } from "./shortcuts";

/** A channel's description as plain text: the server's rendering without its markup (the markdown source would show asterisks). */
function descriptionText(channel: Channel): string {
  if (!channel.rendered_description) return channel.description;
  const template = document.createElement("template");
  template.innerHTML = channel.rendered_description;
  return (template.content.textContent ?? "").replace(/\s+/g, " ").trim();
}

/** The message column's head: where the person is, and the search that is itself a narrow. */
export function Header(props: { narrow: Narrow; onMenu: () => void }) {
  const { narrow } = props;
  const query = useSignal(narrow.kind === "search" ? narrow.query : "");
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    query.value = narrow.kind === "search" ? narrow.query : "";
  }, [narrow]);
  useEffect(() => {
    if (searchFocus.value) input.current?.focus();
  }, [searchFocus.value]);
  const channel = narrow.kind === "channel" && narrow.topic === undefined ? channels.value.get(narrow.channelId) : undefined;
  const description = channel && descriptionText(channel);

  function submit(event: Event) {
    event.preventDefault();
    const text = query.value.trim();
    if (text) goTo({ kind: "search", query: text });
  }

  return (
    <header class="chat-head">
      <button type="button" class="icon-btn chat-menu" aria-label="Conversations" onClick={props.onMenu}>
        <Icon name="menu" size={20} />
      </button>
      <div class="chat-where">
        <h1>{narrowTitle(narrow)}</h1>
        {description && <p class="muted">{description}</p>}
      </div>
      <form class="chat-search" role="search" onSubmit={submit}>
        <input
          ref={input}
          type="search"
          aria-label="Search messages"
          placeholder="Search"
          value={query.value}
          onInput={(event) => (query.value = (event.target as HTMLInputElement).value)}
          onKeyDown={(event) => event.key === "Escape" && (event.target as HTMLInputElement).blur()}
        />
      </form>
    </header>
  );
}
