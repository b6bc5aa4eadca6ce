import { api } from "../../ui/api";
import { Badge, Button, CopyField, Empty, useAction } from "../../ui/components";
import { formatAgo, formatDateTime } from "../../ui/format";
import { ROLE_NAMES } from "../../ui/me";
import type { Invite } from "./types";

/** Invitations and links that can still be used: who made them, for which role, until when. */

function Expiry({ at }: { at: number | null }) {
  if (at === null) return <span>Never</span>;
  return (
    <span class="cell-main">
      <span>{formatAgo(at)}</span>
      <small>{formatDateTime(at)}</small>
    </span>
  );
}

export function PendingInvitations(props: { invites: Invite[]; names: Map<number, string>; mail: boolean | null; onChanged: () => void }) {
  const { busy, run } = useAction();
  const change = (key: string, action: () => Promise<unknown>, done: string) => run(key, action, done).then((ok) => ok && props.onChanged());

  if (props.invites.length === 0) return <Empty>No pending invitations or links.</Empty>;
  // Newest first: what was just made is what one looks for.
  const invites = [...props.invites].sort((a, b) => b.invited - a.invited || b.id - a.id);
  return (
    <div class="table-wrap">
      <table class="table">
        <thead>
          <tr>
            <th>Invitation</th>
            <th>Role</th>
            <th>Invited by</th>
            <th>Expires</th>
            <th class="actions">Actions</th>
          </tr>
        </thead>
        <tbody>
          {invites.map((invite) => {
            const key = `${invite.is_multiuse ? "link" : "email"}-${invite.id}`;
            const what = invite.is_multiuse ? "reusable link" : `invitation to ${invite.email}`;
            return (
              <tr key={key} data-invite={key}>
                <td>
                  {invite.is_multiuse ? (
                    <div class="stack tight">
                      <span>
                        <Badge kind="accent">Reusable link</Badge>
                      </span>
                      <CopyField id={`link-${invite.id}`} value={invite.link_url ?? ""} label="Reusable invitation link" />
                    </div>
                  ) : (
                    <span class="cell-main">
                      <strong class="break">{invite.email}</strong>
                      <small>Sent {formatAgo(invite.invited)}</small>
                    </span>
                  )}
                </td>
                <td data-label="Role">{ROLE_NAMES[invite.invited_as] ?? invite.invited_as}</td>
                <td data-label="Invited by">{props.names.get(invite.invited_by_user_id) ?? "Someone"}</td>
                <td data-label="Expires" class="nowrap">
                  <Expiry at={invite.expiry_date} />
                </td>
                <td class="actions">
                  {!invite.is_multiuse && props.mail !== false && (
                    <Button small busy={busy === `resend-${key}`} onClick={() => change(`resend-${key}`, () => api("POST", `/invites/${invite.id}/resend`), `Sent the invitation to ${invite.email} again.`)}>
                      Resend
                    </Button>
                  )}{" "}
                  <Button
                    small
                    variant="danger"
                    aria-label={`Revoke the ${what}`}
                    busy={busy === `revoke-${key}`}
                    onClick={() =>
                      confirm(`Revoke the ${what}? It stops working at once.`) &&
                      change(`revoke-${key}`, () => api("DELETE", invite.is_multiuse ? `/invites/multiuse/${invite.id}` : `/invites/${invite.id}`), `Revoked the ${what}.`)
                    }
                  >
                    Revoke
                  </Button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
