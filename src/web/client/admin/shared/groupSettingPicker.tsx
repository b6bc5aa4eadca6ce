import type { ComponentChildren } from "preact";
import { api } from "../../ui/api";
import { Field, Select } from "../../ui/components";
import { AddSelect, type Chip, ChipList } from "./chips";

/**
 * An editor for a group-setting value (who holds a permission): one group, or specific people
 * and groups. The value is the API's own: a user group ID or {direct_members, direct_subgroups}.
 */

export interface AnonymousValue {
  direct_members: number[];
  direct_subgroups: number[];
}
export type GroupSettingValue = number | AnonymousValue;

export interface PickerGroup {
  id: number;
  name: string;
  description: string;
  members: number[];
  direct_subgroup_ids: number[];
  is_system_group: boolean;
  deactivated: boolean;
}

export interface PickerUser {
  user_id: number;
  full_name: string;
  is_active: boolean;
  is_bot: boolean;
}

export interface GroupSettingChoices {
  groups: PickerGroup[];
  users: PickerUser[];
}

/** Everyone a value may name: named groups (system ones included) and active people. */
export async function loadGroupSettingChoices(): Promise<GroupSettingChoices> {
  const [groups, users] = await Promise.all([
    api<{ user_groups: PickerGroup[] }>("GET", "/user_groups", { include_deactivated_groups: true }),
    api<{ members: PickerUser[] }>("GET", "/users", { client_gravatar: false }),
  ]);
  return { groups: groups.user_groups, users: users.members.filter((user) => user.is_active) };
}

/** The system groups from the widest to the narrowest, named as people say them. */
export const SYSTEM_GROUP_LABELS: Record<string, string> = {
  "role:internet": "Everyone on the internet",
  "role:everyone": "Everyone",
  "role:members": "Members",
  "role:fullmembers": "Full members",
  "role:moderators": "Moderators",
  "role:administrators": "Administrators",
  "role:owners": "Owners",
  "role:nobody": "Nobody",
};
const SYSTEM_ORDER = Object.keys(SYSTEM_GROUP_LABELS);

/** What a person sees for a group: the friendly name of a system group, else its own name. */
export const groupLabel = (group: Pick<PickerGroup, "name" | "is_system_group">) => (group.is_system_group ? (SYSTEM_GROUP_LABELS[group.name] ?? group.name) : group.name);

export const isAnonymousValue = (value: GroupSettingValue): value is AnonymousValue => typeof value !== "number";

/** A one-line summary of a value, for tables: "Administrators", or "Ada, Team A". */
export function describeGroupSetting(value: GroupSettingValue | null | undefined, choices: GroupSettingChoices): string {
  if (value === null || value === undefined) return "—";
  const groupName = (id: number) => {
    const group = choices.groups.find((item) => item.id === id);
    return group ? groupLabel(group) : `group ${id}`;
  };
  if (!isAnonymousValue(value)) return groupName(value);
  const names = [...value.direct_members.map((id) => choices.users.find((user) => user.user_id === id)?.full_name ?? `user ${id}`), ...value.direct_subgroups.map(groupName)];
  return names.length === 0 ? "Nobody" : names.join(", ");
}

const SPECIFIC = "specific";

interface PickerProps extends GroupSettingChoices {
  id: string;
  label: string;
  hint?: ComponentChildren;
  value: GroupSettingValue;
  onChange: (value: GroupSettingValue) => void;
  /** System group names the setting accepts; all but role:internet when not given. */
  allowedSystemGroups?: string[];
  /** Whether specific people and groups are allowed (some settings take a system group only). */
  allowSpecific?: boolean;
  disabled?: boolean;
}

export function GroupSettingPicker(props: PickerProps) {
  const allowed = props.allowedSystemGroups ?? SYSTEM_ORDER.filter((name) => name !== "role:internet");
  const systemGroups = props.groups.filter((group) => group.is_system_group && allowed.includes(group.name)).sort((a, b) => SYSTEM_ORDER.indexOf(a.name) - SYSTEM_ORDER.indexOf(b.name));
  const namedGroups = props.groups.filter((group) => !group.is_system_group && !group.deactivated).sort((a, b) => a.name.localeCompare(b.name));
  const allowSpecific = props.allowSpecific ?? true;
  const value = props.value;
  const specific = isAnonymousValue(value);

  const options: Array<{ value: string; label: string }> = [
    ...systemGroups.map((group) => ({ value: String(group.id), label: groupLabel(group) })),
    ...(allowSpecific ? namedGroups.map((group) => ({ value: String(group.id), label: `Group: ${group.name}` })) : []),
  ];
  // A value naming a group the list would not offer (deactivated, or not allowed) still shows.
  if (!specific && !options.some((option) => option.value === String(value))) {
    const group = props.groups.find((item) => item.id === value);
    options.push({ value: String(value), label: group ? groupLabel(group) : `Group ${value}` });
  }
  if (allowSpecific) options.push({ value: SPECIFIC, label: "Specific people or groups…" });

  function choose(choice: string) {
    if (choice !== SPECIFIC) return props.onChange(Number(choice));
    if (specific) return;
    // Switching to specific people keeps who had it so far, as a group chip to refine.
    const nobody = props.groups.find((group) => group.name === "role:nobody");
    const start = value === nobody?.id ? [] : [value];
    props.onChange({ direct_members: [], direct_subgroups: start });
  }

  return (
    <Field label={props.label} id={props.id} hint={props.hint}>
      <Select id={props.id} value={specific ? SPECIFIC : String(value)} options={options} onValue={choose} disabled={props.disabled} />
      {specific && <SpecificChooser {...props} value={value} />}
    </Field>
  );
}

/** Chips for the people and groups named, and a select to add one more. */
function SpecificChooser(props: Omit<PickerProps, "value"> & { value: AnonymousValue }) {
  const { value } = props;
  const userName = (id: number) => props.users.find((user) => user.user_id === id)?.full_name ?? `User ${id}`;
  const groupName = (id: number) => {
    const group = props.groups.find((item) => item.id === id);
    return group ? groupLabel(group) : `Group ${id}`;
  };
  const chips: Chip[] = [
    ...value.direct_subgroups.map((id) => ({
      key: `group-${id}`,
      label: groupName(id),
      onRemove: () => props.onChange({ ...value, direct_subgroups: value.direct_subgroups.filter((item) => item !== id) }),
    })),
    ...value.direct_members.map((id) => ({
      key: `user-${id}`,
      label: userName(id),
      onRemove: () => props.onChange({ ...value, direct_members: value.direct_members.filter((item) => item !== id) }),
    })),
  ];
  const addable = [
    ...props.users
      .filter((user) => !value.direct_members.includes(user.user_id))
      .sort((a, b) => a.full_name.localeCompare(b.full_name))
      .map((user) => ({ value: `user:${user.user_id}`, label: user.is_bot ? `${user.full_name} (bot)` : user.full_name })),
    ...props.groups
      .filter((item) => !item.deactivated && item.name !== "role:nobody" && item.name !== "role:internet" && !value.direct_subgroups.includes(item.id))
      .map((item) => ({ value: `group:${item.id}`, label: `Group: ${groupLabel(item)}` })),
  ];
  const add = (choice: string) => {
    const [kind, id] = choice.split(":");
    if (kind === "user") props.onChange({ ...value, direct_members: [...value.direct_members, Number(id)] });
    if (kind === "group") props.onChange({ ...value, direct_subgroups: [...value.direct_subgroups, Number(id)] });
  };
  return (
    <div class="picker-specific">
      <ChipList label={`${props.label}: chosen`} chips={chips} disabled={props.disabled} />
      <AddSelect id={`${props.id}-add`} label={`Add to ${props.label}`} prompt="Add a person or group…" options={addable} onAdd={add} disabled={props.disabled} />
    </div>
  );
}

/** A permission setting's rules as the server describes them (register's server_supported_permission_settings). */
export interface PermissionRule {
  require_system_group: boolean;
  allow_internet_group: boolean;
  allow_nobody_group: boolean;
  allow_everyone_group: boolean;
  allowed_system_groups: string[];
}

/** The system groups a rule lets a setting name, for the picker's allowedSystemGroups. */
export function systemGroupsAllowedBy(rule: PermissionRule | undefined): string[] | undefined {
  if (!rule) return undefined;
  if (rule.allowed_system_groups.length > 0) return rule.allowed_system_groups;
  return SYSTEM_ORDER.filter(
    (name) => !(name === "role:internet" && !rule.allow_internet_group) && !(name === "role:everyone" && !rule.allow_everyone_group) && !(name === "role:nobody" && !rule.allow_nobody_group),
  );
}
