import { useState } from "preact/hooks";
import { api } from "../../ui/api";
import { errorText, Field, FormDialog, TextArea, TextInput, toast } from "../../ui/components";
import { navigate } from "../../ui/router";
import { MemberChooser, SubgroupChooser } from "./members";
import type { GroupsData } from "./data";

/** A new group: name, description, its first members and subgroups. Permissions start at the defaults. */
export function CreateGroupDialog(props: { open: boolean; onClose: () => void; data: GroupsData; onCreated: () => void }) {
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [members, setMembers] = useState<number[]>([]);
  const [subgroups, setSubgroups] = useState<number[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    setName("");
    setDescription("");
    setMembers([]);
    setSubgroups([]);
    setError(null);
    props.onClose();
  };

  async function create(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { group_id } = await api<{ group_id: number }>("POST", "/user_groups/create", { name: name.trim(), description, members, subgroups });
      toast(`${name.trim()} was created.`);
      close();
      props.onCreated();
      navigate(`/admin/groups/${group_id}`);
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <FormDialog id="create-group" title="New user group" submitLabel="Create group" open={props.open} busy={busy} error={error} onClose={close} onSubmit={create}>
      <Field label="Name" id="group-name" hint="How people mention it: @*name*.">
        <TextInput id="group-name" value={name} onValue={setName} required maxLength={100} />
      </Field>
      <Field label="Description" id="group-description">
        <TextArea id="group-description" value={description} onValue={setDescription} />
      </Field>
      <MemberChooser id="group-members" users={props.data.users} chosen={members} onAdd={(id) => setMembers([...members, id])} onRemove={(id) => setMembers(members.filter((each) => each !== id))} />
      <SubgroupChooser id="group-subgroups" groups={props.data.groups} chosen={subgroups} onAdd={(id) => setSubgroups([...subgroups, id])} onRemove={(id) => setSubgroups(subgroups.filter((each) => each !== id))} />
    </FormDialog>
  );
}
