import { describe, test } from "bun:test";
import { createChannel } from "../../helpers/channels";
import { ok, type Org } from "../../helpers/seed";
import { systemGroupId } from "../support";
import { LEGACY, replay } from "./harness";

/** The organization's settings (PATCH /realm): realm update and update_dict, to everyone. */
export function realmScenarios(org: () => Org) {
  describe("organization settings", () => {
    test("name, description, limits, history, topics and a group setting, in one request, to everyone and old clients", async () => {
      const { owner, member, member2, guest } = org();
      const moderators = systemGroupId(org().server, "role:moderators");
      const change = {
        name: "Replayed Org",
        description: "Where replays happen.",
        message_content_edit_limit_seconds: "unlimited",
        message_content_delete_limit_seconds: 300,
        message_edit_history_visibility_policy: "moves",
        mandatory_topics: true,
        enable_spectator_access: true,
        max_file_upload_size_mib: 5,
        can_create_groups: JSON.stringify({ new: { direct_members: [member.id], direct_subgroups: [moderators] } }),
        can_mention_many_users_group: JSON.stringify({ new: moderators }),
      };
      await replay([{ person: member }, { person: guest }, { person: member2, params: LEGACY }], () => owner.api.patch("/realm", change).then(ok));
      const restore = {
        message_content_edit_limit_seconds: 600,
        message_content_delete_limit_seconds: "unlimited",
        message_edit_history_visibility_policy: "all",
        mandatory_topics: false,
        enable_spectator_access: false,
        max_file_upload_size_mib: 25,
        can_create_groups: JSON.stringify({ new: systemGroupId(org().server, "role:members") }),
        can_mention_many_users_group: JSON.stringify({ new: systemGroupId(org().server, "role:administrators") }),
      };
      await replay([{ person: member }, { person: guest }], () => owner.api.patch("/realm", restore).then(ok));
    });

    test("archiving the announcements channel turns announcements off, and everyone is told", async () => {
      const { owner, member, guest } = org();
      const channelId = await createChannel(org(), owner);
      ok(await owner.api.patch("/realm", { new_stream_announcements_stream_id: channelId }));
      await replay([{ person: member }, { person: guest }], () => owner.api.delete(`/streams/${channelId}`).then(ok));
    });

    test("a waiting period moves members out of role:fullmembers and back", async () => {
      const { owner, member, guest } = org();
      await replay([{ person: member }, { person: guest }], () => owner.api.patch("/realm", { waiting_period_threshold: 7 }).then(ok));
      await replay([{ person: member }, { person: guest }], () => owner.api.patch("/realm", { waiting_period_threshold: 0 }).then(ok));
    });
  });
}
