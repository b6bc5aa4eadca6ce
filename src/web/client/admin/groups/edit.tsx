import { useEffect, useState } from "preact/hooks";
import { api } from "../../ui/api";
import { Badge, Button, Empty, Field, Notice, PageHead, TextArea, TextInput, useAction } from "../../ui/components";
import type { Me } from "../../ui/me";
import { GroupSettingPicker, systemGroupsAllowedBy, type GroupSettingValue } from "../shared/groupSettingPicker";
import { sameGroupSetting } from "../shared/realmState";
import { memberSummary, type GroupsData, type UserGroup } from "./data";
import { GROUP_PERMISSIONS, type GroupPermissionName } from "./labels";
import { MemberChooser, SubgroupChooser } from "./members";

/** One group's page: name and description, members and subgroups, permissions, deactivation. */
export function GroupEditor({ groupId, data, reload }: { me: Me; groupId: number; data: GroupsData; reload: () => void }) {
  const group = data.groups.find((each) => each.id === groupId) as UserGroup | undefined;
  if (!group || group.is_system_group) {
    return (
      <>
        <BackLink />
        <Empty>{group ? "Role groups are kept by the server and cannot be edited." : "There is no such group."}</Empty>
      </>
    );
  }
  return (
    <>
      <BackLink />
      <PageHead title={group.name} description={<>{group.deactivated ? <Badge kind="danger">deactivated</Badge> : memberSummary(group)}</>} />
      {group.deactivated && <Notice kind="warn">This group is deactivated: it cannot be mentioned or used in permissions until it is reactivated.</Notice>}
      <ProfileCard group={group} reload={reload} />
      <MembersCard group={group} data={data} reload={reload} />
      <PermissionsCard group={group} data={data} reload={reload} />
      <StatusCard group={group} reload={reload} />
    </>
  );
}

const BackLink = () => (
  <p>
    <a href="/admin/groups">← All user groups</a>
  </p>
);

function ProfileCard({ group, reload }: { group: UserGroup; reload: () => void }) {
  const [name, setName] = useState(group.name);
  const [description, setDescription] = useState(group.description);
  const { busy, run } = useAction();
  useEffect(() => {
    setName(group.name);
    setDescription(group.description);
  }, [group.name, group.description]);
  const changes = { ...(name.trim() !== group.name ? { name: name.trim() } : {}), ...(description !== group.description ? { description } : {}) };
  const dirty = Object.keys(changes).length > 0;
  return (
    <form
      class="card"
      onSubmit={(event) => {
        event.preventDefault();
        run("profile", () => api("PATCH", `/user_groups/${group.id}`, changes), "Saved.").then((ok) => ok && reload());
      }}
    >
      <div class="card-head">
        <h2>Name and description</h2>
      </div>
      <div class="card-body">
        <Field label="Name" id="edit-group-name">
          <TextInput id="edit-group-name" value={name} onValue={setName} required maxLength={100} />
        </Field>
        <Field label="Description" id="edit-group-description">
          <TextArea id="edit-group-description" value={description} onValue={setDescription} />
        </Field>
      </div>
      <div class="card-foot">
        <Button variant="primary" type="submit" disabled={!dirty} busy={busy === "profile"}>
          Save name and description
        </Button>
      </div>
    </form>
  );
}

/** Members change at once, one request each, as the group's own endpoints take them. */
function MembersCard({ group, data, reload }: { group: UserGroup; data: GroupsData; reload: () => void }) {
  const { busy, run } = useAction();
  const person = (id: number) => data.users.find((user) => user.user_id === id)?.full_name ?? `User ${id}`;
  const groupName = (id: number) => data.groups.find((each) => each.id === id)?.name ?? `group ${id}`;
  const change = (path: string, params: Record<string, unknown>, done: string) => run("members", () => api("POST", `/user_groups/${group.id}/${path}`, params), done).then((ok) => ok && reload());
  return (
    <div class="card">
      <div class="card-head">
        <h2>Members</h2>
        {busy && <span class="spinner" aria-label="Saving" />}
      </div>
      <div class="card-body">
        <MemberChooser
          id="group-add-member"
          users={data.users}
          chosen={group.members}
          disabled={busy !== null}
          onAdd={(id) => change("members", { add: [id] }, `${person(id)} was added.`)}
          onRemove={(id) => change("members", { delete: [id] }, `${person(id)} was removed.`)}
        />
        <SubgroupChooser
          id="group-add-subgroup"
          groups={data.groups}
          self={group.id}
          chosen={group.direct_subgroup_ids}
          disabled={busy !== null}
          onAdd={(id) => change("subgroups", { add: [id] }, `${groupName(id)} is now a subgroup.`)}
          onRemove={(id) => change("subgroups", { delete: [id] }, `${groupName(id)} is no longer a subgroup.`)}
        />
      </div>
    </div>
  );
}

type Values = Record<GroupPermissionName, GroupSettingValue>;
const valuesOf = (group: UserGroup) => Object.fromEntries(GROUP_PERMISSIONS.map(({ name }) => [name, group[name] as GroupSettingValue])) as Values;

/** The six settings, saved together; each sent in the {new, old} form so a concurrent edit is refused, not overwritten. */
function PermissionsCard({ group, data, reload }: { group: UserGroup; data: GroupsData; reload: () => void }) {
  const saved = valuesOf(group);
  const [values, setValues] = useState<Values>(saved);
  const { busy, run } = useAction();
  useEffect(() => setValues(valuesOf(group)), [group]);
  const changed = GROUP_PERMISSIONS.filter(({ name }) => !sameGroupSetting(values[name], saved[name]));
  const save = () => {
    const params = Object.fromEntries(changed.map(({ name }) => [name, { new: values[name], old: saved[name] }]));
    return run("permissions", () => api("PATCH", `/user_groups/${group.id}`, params), "Permissions saved.").then((ok) => ok && reload());
  };
  return (
    <form
      class="card"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <div class="card-head">
        <h2>Permissions</h2>
      </div>
      <div class="card-body form-grid">
        {GROUP_PERMISSIONS.map(({ name, label, hint }) => {
          const rule = data.rules[name];
          return (
            <GroupSettingPicker
              key={name}
              id={`group-${name}`}
              label={label}
              hint={hint}
              value={values[name]}
              onChange={(value) => setValues({ ...values, [name]: value })}
              groups={data.groups.filter((each) => each.id !== group.id)}
              users={data.users}
              allowedSystemGroups={systemGroupsAllowedBy(rule)}
              allowSpecific={!rule?.require_system_group}
            />
          );
        })}
      </div>
      <div class="card-foot">
        {changed.length > 0 && (
          <Button onClick={() => setValues(saved)} disabled={busy !== null}>
            Undo changes
          </Button>
        )}
        <Button variant="primary" type="submit" disabled={changed.length === 0} busy={busy === "permissions"}>
          Save permissions
        </Button>
      </div>
    </form>
  );
}

function StatusCard({ group, reload }: { group: UserGroup; reload: () => void }) {
  const { busy, run } = useAction();
  return (
    <div class="card">
      <div class="card-body spread">
        <div>
          <h2>{group.deactivated ? "Reactivate this group" : "Deactivate this group"}</h2>
          <p class="muted small">
            {group.deactivated ? "It can be mentioned and used in permissions again." : "It can no longer be mentioned or used in permissions. Its members and settings are kept."}
          </p>
        </div>
        {group.deactivated ? (
          <Button busy={busy === "status"} onClick={() => run("status", () => api("PATCH", `/user_groups/${group.id}`, { deactivated: false }), `${group.name} was reactivated.`).then((ok) => ok && reload())}>
            Reactivate
          </Button>
        ) : (
          <Button
            variant="danger"
            busy={busy === "status"}
            onClick={() => confirm(`Deactivate ${group.name}?`) && run("status", () => api("POST", `/user_groups/${group.id}/deactivate`), `${group.name} was deactivated.`).then((ok) => ok && reload())}
          >
            Deactivate group
          </Button>
        )}
      </div>
    </div>
  );
}
