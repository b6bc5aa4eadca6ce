import { useState } from "preact/hooks";
import { api } from "../../ui/api";
import type { SectionProps } from "../../ui/app";
import { Avatar, Badge, Button, Empty, ListFilter, Loaded, PageHead, Select, useAction, useLoad } from "../../ui/components";
import { formatAgo, matchesSearch } from "../../ui/format";
import { ROLE_NAMES } from "../../ui/me";
import { PasswordResetDialog } from "./passwordReset";
import type { Person } from "./person";

/** Everyone in the organization: find them, change their role, deactivate and reactivate them. */

interface PresenceEntry {
  active_timestamp?: number;
  idle_timestamp?: number;
}

async function loadPeople() {
  const [users, presence] = await Promise.all([
    api<{ members: Person[] }>("GET", "/users", { client_gravatar: false }),
    api<{ presences: Record<string, PresenceEntry> }>("GET", "/realm/presence", { slim_presence: true }).catch(() => ({ presences: {} })),
  ]);
  const lastActive = new Map<number, number>();
  for (const [id, entry] of Object.entries(presence.presences)) lastActive.set(Number(id), Math.max(entry.active_timestamp ?? 0, entry.idle_timestamp ?? 0));
  return { people: users.members.filter((person) => !person.is_bot), lastActive };
}

const ROLE_OPTIONS = [100, 200, 300, 400, 600].map((role) => ({ value: role, label: ROLE_NAMES[role] }));

type Filter = "active" | "deactivated" | "all";

export default function PeopleSection({ me }: SectionProps) {
  const state = useLoad(loadPeople);
  const [search, setSearch] = useState("");
  const [filter, setFilter] = useState<Filter>("active");
  const { busy, run } = useAction();
  const [resetting, setResetting] = useState<Person | null>(null);

  const change = (key: string, action: () => Promise<unknown>, done: string) => run(key, action, done).then((ok) => ok && state.reload());

  return (
    <>
      <PageHead title="People" description="Everyone with an account in this organization. Roles decide what each person may do; only owners can make owners." />
      <div class="card">
        <ListFilter
          id="people"
          noun="people"
          placeholder="Search by name or e-mail"
          search={search}
          onSearch={setSearch}
          filter={filter}
          onFilter={setFilter}
          options={[
            { value: "active", label: "Active" },
            { value: "deactivated", label: "Deactivated" },
            { value: "all", label: "Everyone" },
          ]}
        />
        <Loaded state={state}>
          {({ people, lastActive }) => {
            const shown = people.filter(
              (person) =>
                (filter === "all" || person.is_active === (filter === "active")) &&
                matchesSearch(search, [person.full_name, person.delivery_email ?? person.email]),
            );
            if (shown.length === 0) return <Empty>Nobody matches.</Empty>;
            return (
              <div class="table-wrap">
                <table class="table">
                  <thead>
                    <tr>
                      <th>Name</th>
                      <th>Role</th>
                      <th>Last active</th>
                      <th class="actions">Actions</th>
                    </tr>
                  </thead>
                  <tbody>
                    {shown.map((person) => {
                      const self = person.user_id === me.user_id;
                      // Only owners grant or take away ownership; the server refuses it anyway.
                      const roleOptions = me.is_owner ? ROLE_OPTIONS : ROLE_OPTIONS.filter((option) => option.value !== 100);
                      return (
                        <tr key={person.user_id} data-user-id={person.user_id}>
                          <td>
                            <div class="row">
                              <Avatar name={person.full_name} url={person.avatar_url} />
                              <span class="cell-main">
                                <strong>
                                  {person.full_name} {self && <Badge>you</Badge>} {!person.is_active && <Badge kind="danger">deactivated</Badge>}
                                </strong>
                                <small>{person.delivery_email ?? person.email}</small>
                              </span>
                            </div>
                          </td>
                          <td data-label="Role">
                            {person.role === 100 && !me.is_owner ? (
                              <Badge kind="accent">Owner</Badge>
                            ) : (
                              <Select
                                id={`role-${person.user_id}`}
                                aria-label={`Role of ${person.full_name}`}
                                value={person.role}
                                options={roleOptions}
                                disabled={self || !person.is_active || busy !== null}
                                onValue={(role) => change(`role-${person.user_id}`, () => api("PATCH", `/users/${person.user_id}`, { role }), `${person.full_name} is now ${ROLE_NAMES[role].toLowerCase()}.`)}
                              />
                            )}
                          </td>
                          <td data-label="Last active" class="nowrap">
                            {formatAgo(lastActive.get(person.user_id))}
                          </td>
                          <td class="actions">
                            {/* Only owners may reset an owner's password; the server refuses it anyway. */}
                            {!self && person.is_active && (person.role !== 100 || me.is_owner) && (
                              <Button small onClick={() => setResetting(person)}>
                                Reset password
                              </Button>
                            )}{" "}
                            {!self &&
                              (person.role !== 100 || me.is_owner) &&
                              (person.is_active ? (
                                <Button
                                  small
                                  variant="danger"
                                  busy={busy === `deactivate-${person.user_id}`}
                                  onClick={() =>
                                    confirm(`Deactivate ${person.full_name}? They are signed out everywhere and can no longer sign in.`) &&
                                    change(`deactivate-${person.user_id}`, () => api("DELETE", `/users/${person.user_id}`), `${person.full_name} was deactivated.`)
                                  }
                                >
                                  Deactivate
                                </Button>
                              ) : (
                                <Button small busy={busy === `reactivate-${person.user_id}`} onClick={() => change(`reactivate-${person.user_id}`, () => api("POST", `/users/${person.user_id}/reactivate`), `${person.full_name} was reactivated.`)}>
                                  Reactivate
                                </Button>
                              ))}
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            );
          }}
        </Loaded>
      </div>
      <PasswordResetDialog person={resetting} onClose={() => setResetting(null)} />
    </>
  );
}
