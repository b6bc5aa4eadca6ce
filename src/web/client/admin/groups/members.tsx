import { Field } from "../../ui/components";
import { AddSelect, ChipList } from "../shared/chips";
import { groupLabel, type PickerGroup, type PickerUser } from "../shared/groupSettingPicker";

/** Who is directly in a group: people and subgroups, each as chips with a select to add more. */

interface ChooserProps {
  id: string;
  chosen: number[];
  onAdd: (id: number) => void;
  onRemove: (id: number) => void;
  disabled?: boolean;
}

export function MemberChooser(props: ChooserProps & { users: PickerUser[] }) {
  const name = (id: number) => props.users.find((user) => user.user_id === id)?.full_name ?? `User ${id}`;
  const options = props.users
    .filter((user) => !props.chosen.includes(user.user_id))
    .sort((a, b) => a.full_name.localeCompare(b.full_name))
    .map((user) => ({ value: String(user.user_id), label: user.is_bot ? `${user.full_name} (bot)` : user.full_name }));
  return (
    <Field label="People" id={props.id}>
      <div class="stack">
        <ChipList label="People in the group" chips={props.chosen.map((id) => ({ key: String(id), label: name(id), onRemove: () => props.onRemove(id) }))} empty="No people yet." disabled={props.disabled} />
        <AddSelect id={props.id} label="Add a person" prompt="Add a person…" options={options} onAdd={(id) => props.onAdd(Number(id))} disabled={props.disabled} />
      </div>
    </Field>
  );
}

/** Subgroups: any active named group but the group itself; role groups too. */
export function SubgroupChooser(props: ChooserProps & { groups: PickerGroup[]; self?: number }) {
  const group = (id: number) => props.groups.find((each) => each.id === id);
  const options = props.groups
    .filter((each) => !each.deactivated && each.id !== props.self && !props.chosen.includes(each.id) && each.name !== "role:internet" && each.name !== "role:nobody")
    .sort((a, b) => Number(a.is_system_group) - Number(b.is_system_group) || groupLabel(a).localeCompare(groupLabel(b)))
    .map((each) => ({ value: String(each.id), label: groupLabel(each) }));
  return (
    <Field label="Subgroups" id={props.id} hint="Everyone in a subgroup is in this group too.">
      <div class="stack">
        <ChipList
          label="Subgroups of the group"
          chips={props.chosen.map((id) => ({ key: String(id), label: group(id) ? groupLabel(group(id)!) : `Group ${id}`, onRemove: () => props.onRemove(id) }))}
          empty="No subgroups."
          disabled={props.disabled}
        />
        <AddSelect id={props.id} label="Add a subgroup" prompt="Add a group…" options={options} onAdd={(id) => props.onAdd(Number(id))} disabled={props.disabled} />
      </div>
    </Field>
  );
}
