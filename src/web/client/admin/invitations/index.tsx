import { api } from "../../ui/api";
import type { SectionProps } from "../../ui/app";
import { Loaded, Notice, PageHead, useLoad } from "../../ui/components";
import { InviteForm } from "./inviteForm";
import { mailAvailable } from "./mail";
import { PendingInvitations } from "./pending";
import type { ChannelChoice, Invite } from "./types";

/** Invite people by e-mail or with a reusable link, and manage what is still pending. */

async function loadSetup() {
  const [channels, mail] = await Promise.all([
    api<{ streams: ChannelChoice[] }>("GET", "/streams", { include_can_access_content: true }),
    mailAvailable(),
  ]);
  return { channels: channels.streams, mail };
}

async function loadPending() {
  const [invites, users] = await Promise.all([api<{ invites: Invite[] }>("GET", "/invites"), api<{ members: Array<{ user_id: number; full_name: string }> }>("GET", "/users")]);
  return { invites: invites.invites, names: new Map(users.members.map((user) => [user.user_id, user.full_name])) };
}

export default function InvitationsSection({ me }: SectionProps) {
  const setup = useLoad(loadSetup);
  const pending = useLoad(loadPending);
  return (
    <>
      <PageHead title="Invitations" description="Invite people by e-mail, or make a link anyone can use to join. Both work until they expire, are used, or you revoke them." />
      <Loaded state={setup}>
        {({ channels, mail }) => (
          <>
            {mail === false && (
              <Notice kind="warn">
                This server cannot send e-mail yet, so invitations give you links to pass on yourself. An administrator can set up mail under <a href="/admin/server">Server</a>.
              </Notice>
            )}
            <InviteForm myRole={me.role} channels={channels} mail={mail} onCreated={pending.reload} />
            <section class="section" aria-labelledby="pending-heading">
              <h2 id="pending-heading">Pending</h2>
              <div class="card">
                <Loaded state={pending}>{({ invites, names }) => <PendingInvitations invites={invites} names={names} mail={mail} onChanged={pending.reload} />}</Loaded>
              </div>
            </section>
          </>
        )}
      </Loaded>
    </>
  );
}
