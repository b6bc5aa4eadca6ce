import type { RefObject } from "preact";
import { useState } from "preact/hooks";
import { Icon } from "../../../ui/icons";
import { dmKey, dmPeople, type Narrow } from "../../model/narrow";
import { channels, me, realm, sortedSubscriptions, userName } from "../../state/store";
import { editDestination, switchDestination, targetForNarrow, type ComposeTarget } from "./state";
import { peopleChoices, topicFieldChoices } from "./suggest";
import { comboProps, listKey, SuggestionList, useListState } from "./Suggestions";

/**
 * Where the message goes, above the message box. In a channel's own view the channel is fixed
 * and only the topic is asked; in a DM conversation's view nothing is asked (the box's
 * placeholder names the people). Anywhere else the person picks a channel and a topic, or
 * switches to a direct message and picks people.
 */

export interface FieldRefs {
  channel: RefObject<HTMLSelectElement>;
  topic: RefObject<HTMLInputElement>;
  people: RefObject<HTMLInputElement>;
}

/** Whether the target is the conversation the view shows, so its channel or people need no field. */
export function isFixed(target: ComposeTarget, narrow: Narrow): boolean {
  if (target.type === "stream") return narrow.kind === "channel" && narrow.channelId === target.channelId;
  return narrow.kind === "dm" && target.userIds.length > 0 && dmKey(narrow.userIds) === dmKey(dmPeople(target.userIds, me.value.userId));
}

export function DestinationFields(props: { target: ComposeTarget; narrow: Narrow; refs: FieldRefs; onDone: () => void }) {
  const { target, narrow, refs } = props;
  const fixed = isFixed(target, narrow);
  if (target.type === "private") {
    if (fixed) return null;
    return (
      <div class="compose-head">
        <PeopleField userIds={target.userIds} inputRef={refs.people} onDone={props.onDone} />
        <button type="button" class="compose-mode" onClick={() => switchDestination(narrow.kind === "channel" ? targetForNarrow(narrow) : { type: "stream", topic: "" })}>
          <Icon name="hash" size={14} />
          Channel message
        </button>
      </div>
    );
  }
  const channel = target.channelId === undefined ? undefined : channels.value.get(target.channelId);
  return (
    <div class="compose-head">
      {fixed ? (
        <span class="compose-channel">
          <Icon name={channel?.invite_only ? "lock" : "hash"} size={14} />
          {channel?.name ?? "Unknown channel"}
        </span>
      ) : (
        <ChannelPicker channelId={target.channelId} topic={target.topic} selectRef={refs.channel} />
      )}
      <span class="compose-sep" aria-hidden="true">
        ›
      </span>
      <TopicField channelId={target.channelId} topic={target.topic} inputRef={refs.topic} onDone={props.onDone} />
      {!fixed && (
        <button type="button" class="compose-mode" onClick={() => switchDestination({ type: "private", userIds: [] })}>
          <Icon name="user" size={14} />
          Direct message
        </button>
      )}
    </div>
  );
}

function ChannelPicker(props: { channelId?: number; topic: string; selectRef: RefObject<HTMLSelectElement> }) {
  const options = sortedSubscriptions.value.map((sub) => ({ id: sub.stream_id, name: sub.name }));
  // A reply to a channel the person is not subscribed to (seen through a link) still shows where it goes.
  const current = props.channelId === undefined ? undefined : channels.value.get(props.channelId);
  if (current && !options.some((option) => option.id === current.stream_id)) options.push({ id: current.stream_id, name: current.name });
  return (
    <select
      ref={props.selectRef}
      class="compose-field compose-channel-picker"
      aria-label="Channel"
      value={props.channelId === undefined ? "" : String(props.channelId)}
      onChange={(event) => {
        const value = event.currentTarget.value;
        editDestination({ type: "stream", channelId: value ? Number(value) : undefined, topic: props.topic });
      }}
    >
      <option value="" disabled>
        Choose a channel
      </option>
      {options.map((option) => (
        <option key={option.id} value={String(option.id)}>
          #{option.name}
        </option>
      ))}
    </select>
  );
}

function TopicField(props: { channelId?: number; topic: string; inputRef: RefObject<HTMLInputElement>; onDone: () => void }) {
  const { channelId, topic } = props;
  const [focused, setFocused] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const typed = topic.trim().toLowerCase();
  const choices = focused && !dismissed && channelId !== undefined ? topicFieldChoices(channelId, topic).filter((choice) => choice.label.toLowerCase() !== typed) : [];
  // Nothing is highlighted until the person types or moves down: Tab and Enter then leave the field as usual.
  const list = useListState(choices, typed ? 0 : -1);
  const open = choices.length > 0;
  const setTopic = (value: string) => editDestination({ type: "stream", channelId, topic: value });
  const pick = (index: number) => {
    setTopic(choices[index].insert);
    setDismissed(true);
    props.onDone();
  };
  return (
    <div class="compose-combo compose-topic-wrap">
      <input
        ref={props.inputRef}
        class="compose-field compose-topic"
        aria-label="Topic"
        placeholder={realm.value.mandatoryTopics ? "Topic" : realm.value.emptyTopicName}
        autocomplete="off"
        role="combobox"
        aria-expanded={open}
        {...comboProps("compose-topic-list", open, list.active)}
        value={topic}
        onInput={(event) => {
          setDismissed(false);
          setTopic(event.currentTarget.value);
        }}
        onFocus={() => (setFocused(true), setDismissed(false))}
        onBlur={() => setFocused(false)}
        onKeyDown={(event) => {
          if (open && listKey(event, choices.length, list, pick, () => setDismissed(true))) return;
          if (event.key === "Enter" && !event.isComposing) {
            event.preventDefault();
            props.onDone();
          }
        }}
      />
      {open && <SuggestionList id="compose-topic-list" label="Suggestions" choices={choices} list={list} onPick={pick} />}
    </div>
  );
}

function PeopleField(props: { userIds: number[]; inputRef: RefObject<HTMLInputElement>; onDone: () => void }) {
  const { userIds } = props;
  const [query, setQuery] = useState("");
  const [focused, setFocused] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const choices = focused && !dismissed && query.trim() ? peopleChoices(query, userIds) : [];
  const list = useListState(choices);
  const open = choices.length > 0;
  const setPeople = (ids: number[]) => editDestination({ type: "private", userIds: ids });
  const pick = (index: number) => {
    const id = choices[index].userId;
    if (id !== undefined) setPeople([...userIds, id]);
    setQuery("");
  };
  return (
    <div class="compose-combo compose-people" onClick={() => props.inputRef.current?.focus()}>
      {userIds.map((id) => {
        const name = id === me.value.userId ? `${userName(id) ?? "Me"} (you)` : (userName(id) ?? `Unknown person ${id}`);
        return (
          <span key={id} class="compose-person">
            {name}
            <button type="button" aria-label={`Remove ${name}`} onClick={() => setPeople(userIds.filter((other) => other !== id))}>
              ×
            </button>
          </span>
        );
      })}
      <input
        ref={props.inputRef}
        class="compose-people-input"
        aria-label="People"
        placeholder={userIds.length ? "Add more people" : "Write to… (type a name)"}
        autocomplete="off"
        role="combobox"
        aria-expanded={open}
        {...comboProps("compose-people-list", open, list.active)}
        value={query}
        onInput={(event) => {
          setDismissed(false);
          setQuery(event.currentTarget.value);
        }}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        onKeyDown={(event) => {
          if (open && listKey(event, choices.length, list, pick, () => setDismissed(true))) return;
          if (event.key === "Backspace" && query === "" && userIds.length) setPeople(userIds.slice(0, -1));
          else if (event.key === "Enter" && !event.isComposing) {
            event.preventDefault();
            if (userIds.length) props.onDone();
          }
        }}
      />
      {open && <SuggestionList id="compose-people-list" label="Suggestions" choices={choices} list={list} onPick={pick} />}
    </div>
  );
}
