import { describe, test } from "bun:test";
import { ok, type Org } from "../../helpers/seed";
import { replay } from "./harness";

/** Invitations change no register section: invites_changed only tells clients to refetch GET /invites. */
export function inviteScenarios(org: () => Org) {
  describe("invitations", () => {
    test("an administrator creates and revokes a reusable link; a member who did not create it is not told", async () => {
      const { admin, member } = org();
      await replay([{ person: admin }, { person: member, unaware: true }], () => admin.api.post("/invites/multiuse", { invite_as: 400 }).then(ok), { changes: false });
      const [link] = ok(await admin.api.get("/invites")).invites.filter((invite: { is_multiuse: boolean }) => invite.is_multiuse);
      await replay([{ person: admin }], () => admin.api.delete(`/invites/multiuse/${link.id}`).then(ok), { changes: false });
    });
  });
}
