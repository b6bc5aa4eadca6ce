import { useState } from "preact/hooks";
import { api } from "../../ui/api";
import { Badge, Button, Empty, ListFilter, PageHead, useAction } from "../../ui/components";
import { matchesSearch } from "../../ui/format";
import { describeGroupSetting, groupLabel } from "../shared/groupSettingPicker";
import { CreateGroupDialog } from "./create";
import { memberSummary, type GroupsData, type UserGroup } from "./data";

type Filter = "active" | "deactivated" | "all";

export function GroupList({ data, reload }: { data: GroupsData; reload: () => void }) {
  const [search, setSearch] = useState("");
  const [filter, setFilter] = useState<Filter>("active");
  const [creating, setCreating] = useState(false);
  const { busy, run } = useAction();
  const groups = data.groups as UserGroup[];
  const named = groups
    .filter((group) => !group.is_system_group)
    .filter((group) => filter === "all" || group.deactivated === (filter === "deactivated"))
    .filter((group) => matchesSearch(search, [group.name, group.description]))
    .sort((a, b) => a.name.localeCompare(b.name));
  const system = groups.filter((group) => group.is_system_group && group.name !== "role:internet" && group.name !== "role:nobody");
  const change = (key: string, action: () => Promise<unknown>, done: string) => run(key, action, done).then((ok) => ok && reload());

  return (
    <>
      <PageHead
        title="User groups"
        description="Groups can be mentioned together and given permissions. Groups may contain other groups."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            New group
          </Button>
        }
      />
      <div class="card">
        <ListFilter
          id="groups"
          noun="groups"
          placeholder="Search groups"
          search={search}
          onSearch={setSearch}
          filter={filter}
          onFilter={setFilter}
          options={[
            { value: "active", label: "Active" },
            { value: "deactivated", label: "Deactivated" },
            { value: "all", label: "All groups" },
          ]}
        />
        {named.length === 0 ? (
          <Empty>{groups.some((group) => !group.is_system_group) ? "No group matches." : "No groups yet. Create one to mention several people at once."}</Empty>
        ) : (
          <div class="table-wrap">
            <table class="table">
              <thead>
                <tr>
                  <th>Group</th>
                  <th>Members</th>
                  <th>Who can mention it</th>
                  <th class="actions">Actions</th>
                </tr>
              </thead>
              <tbody>
                {named.map((group) => (
                  <tr key={group.id} data-group-id={group.id}>
                    <td>
                      <span class="cell-main">
                        <strong>
                          {group.name} {group.deactivated && <Badge kind="danger">deactivated</Badge>}
                        </strong>
                        {group.description && <small>{group.description}</small>}
                      </span>
                    </td>
                    <td data-label="Members" class="nowrap">
                      {memberSummary(group)}
                    </td>
                    <td data-label="Who can mention it">{describeGroupSetting(group.can_mention_group, data)}</td>
                    <td class="actions">
                      <a class="btn btn-small" href={`/admin/groups/${group.id}`} aria-label={`Edit ${group.name}`}>
                        Edit
                      </a>{" "}
                      {group.deactivated ? (
                        <Button small busy={busy === `reactivate-${group.id}`} onClick={() => change(`reactivate-${group.id}`, () => api("PATCH", `/user_groups/${group.id}`, { deactivated: false }), `${group.name} was reactivated.`)}>
                          Reactivate
                        </Button>
                      ) : (
                        <Button
                          small
                          variant="danger"
                          busy={busy === `deactivate-${group.id}`}
                          onClick={() =>
                            confirm(`Deactivate ${group.name}? It can no longer be mentioned or used in permissions; you can reactivate it later.`) &&
                            change(`deactivate-${group.id}`, () => api("POST", `/user_groups/${group.id}/deactivate`), `${group.name} was deactivated.`)
                          }
                        >
                          Deactivate
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>

      <section class="section" aria-labelledby="system-groups">
        <h2 id="system-groups">Roles as groups</h2>
        <p class="muted small">Kept by the server from each person's role, for use in permissions. They cannot be edited.</p>
        <div class="card">
          <div class="table-wrap">
            <table class="table">
              <thead>
                <tr>
                  <th>Group</th>
                  <th>Who is in it</th>
                  <th>Direct members</th>
                </tr>
              </thead>
              <tbody>
                {system.map((group) => (
                  <tr key={group.id} data-group-id={group.id}>
                    <td>
                      <span class="cell-main">
                        <strong>{groupLabel(group)}</strong>
                        <small class="mono">{group.name}</small>
                      </span>
                    </td>
                    <td data-label="Who is in it">{group.description}</td>
                    <td data-label="Direct members" class="nowrap">
                      {memberSummary(group)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      </section>
      <CreateGroupDialog open={creating} onClose={() => setCreating(false)} data={data} onCreated={reload} />
    </>
  );
}
