import { describe, expect, test } from "bun:test";
import { png } from "../../helpers/images";
import { ok, type Org } from "../../helpers/seed";
import { LEGACY, replay } from "./harness";

/** Replays of changes to people, their settings and status, bots, groups and organization defaults. */
export function peopleScenarios(org: () => Org) {
  describe("people", () => {
    test("the owner adds, renames, promotes and deactivates a person; a guest and an old client follow", async () => {
      const { owner, member, guest } = org();
      let created = 0;
      await replay([{ person: owner }, { person: member }, { person: guest }, { person: member, params: LEGACY }], async () => {
        created = ok(await owner.api.post("/users", { email: "replayed@example.com", password: "replay-password", full_name: "Rey Played" })).user_id;
        ok(await owner.api.patch(`/users/${created}`, { full_name: "Rey Renamed", role: 300 }));
        ok(await owner.api.delete(`/users/${created}`));
      });
      await replay([{ person: owner }, { person: member }], () => owner.api.post(`/users/${created}/reactivate`).then(ok));
    });

    // A new account joins role:members (and role:fullmembers): every client is told.
    test("a new account's role groups reach clients as user_group events", async () => {
      const { owner, member } = org();
      await replay([{ person: owner }, { person: member }], () => owner.api.post("/users", { email: "grouped@example.com", password: "grouped-password", full_name: "Gro Uped" }).then(ok));
    });

    test("a member changes settings, some with a legacy form, and their time zone", async () => {
      const { member, member2 } = org();
      await replay([{ person: member }, { person: member, params: LEGACY }], () =>
        member.api.patch("/settings", { enter_sends: true, enable_sounds: false, color_scheme: 3, timezone: "America/Denver", full_name: "Mel Replayed" }).then(ok),
      );
      // Someone else's settings are theirs alone, except the name everyone sees.
      await replay([{ person: member2 }], () => member.api.patch("/settings", { full_name: "Mel Member" }).then(ok));
      await replay([{ person: member2, unaware: true }], () => member.api.patch("/settings", { enter_sends: false }).then(ok));
    });

    test("an avatar uploaded and removed: everyone's user entry and the person's own fields follow", async () => {
      const { member, member2, guest } = org();
      const picture = new Blob([png()], { type: "image/png" });
      await replay([{ person: member }, { person: member2 }, { person: guest }, { person: member, params: LEGACY }], () =>
        member.api.post("/users/me/avatar", { file: picture }, { multipart: true }).then(ok),
      );
      await replay([{ person: member }, { person: member2 }], () => member.api.delete("/users/me/avatar").then(ok));
    });

    test("status: set, partly cleared, and going away", async () => {
      const { member, member2, guest } = org();
      await replay([{ person: member }, { person: member2 }, { person: guest }], () =>
        member.api.post("/users/me/status", { status_text: "in a meeting", emoji_name: "car" }).then(ok),
      );
      await replay([{ person: member }, { person: member2 }], () => member.api.post("/users/me/status", { status_text: "", away: true }).then(ok));
      await replay([{ person: member2 }], () => member.api.post("/users/me/status", { emoji_name: "", away: false }).then(ok));
    });

    test("organization defaults for new users", async () => {
      const { admin, member, guest } = org();
      await replay([{ person: admin }, { person: member }, { person: guest }], () => admin.api.patch("/realm/user_settings_defaults", { enter_sends: true, web_font_size_px: 16 }).then(ok));
    });

    test("bots: created, renamed and deactivated, seen by their owner and administrators only", async () => {
      const { member, admin, member2 } = org();
      let bot = 0;
      await replay(
        [{ person: member }, { person: admin }],
        async () => {
          bot = ok(await member.api.post("/bots", { full_name: "Replay Bot", short_name: "replay", bot_type: 1 })).user_id;
          ok(await admin.api.patch(`/users/${bot}`, { full_name: "Replay Bot Renamed" }));
        },
      );
      const [seen] = await replay([{ person: member }, { person: admin }, { person: member2 }], () => member.api.delete(`/bots/${bot}`).then(ok));
      expect(seen.events.map((event) => event.type)).toContain("realm_bot");
    });
  });

  describe("user groups", () => {
    test("created, edited, members and subgroups changed, deactivated: modern and old clients", async () => {
      const { admin, member, member2, guest, moderator } = org();
      const observers = [{ person: admin }, { person: member }, { person: guest }, { person: member2, params: LEGACY }];
      let group = 0;
      let sub = 0;
      await replay(observers, async () => {
        sub = ok(await admin.api.post("/user_groups/create", { name: "replay-sub", description: "inner", members: [moderator.id] })).group_id;
        group = ok(await admin.api.post("/user_groups/create", { name: "replay-group", description: "outer", members: [member.id] })).group_id;
      });
      await replay(observers, async () => {
        ok(await admin.api.patch(`/user_groups/${group}`, { name: "replay-renamed", description: "outer, renamed" }));
        ok(await admin.api.post(`/user_groups/${group}/members`, { add: [member2.id, guest.id], delete: [member.id] }));
        ok(await admin.api.post(`/user_groups/${group}/subgroups`, { add: [sub] }));
      });
      await replay(observers, () => admin.api.post(`/user_groups/${group}/subgroups`, { delete: [sub] }).then(ok));
      const replayed = await replay(observers, () => admin.api.post(`/user_groups/${sub}/deactivate`).then(ok));
      // The old client is told the group is gone; the modern one that it is deactivated.
      expect(replayed[3].events.map((event) => event.op)).toEqual(["remove"]);
      expect(replayed[0].events.map((event) => event.op)).toEqual(["update"]);
    });
  });

  describe("own things", () => {
    test("drafts: added, edited, removed, to their owner only", async () => {
      const { member, member2 } = org();
      const draft = (content: string) => ({ type: "private", to: [member2.id], topic: "", content, timestamp: 1_700_000_000 });
      let ids: number[] = [];
      await replay([{ person: member }, { person: member2, unaware: true }], async () => {
        ids = ok(await member.api.post("/drafts", { drafts: [draft("first"), draft("second")] })).ids;
      });
      await replay([{ person: member }], async () => {
        ok(await member.api.patch(`/drafts/${ids[0]}`, { draft: draft("first, edited") }));
        ok(await member.api.delete(`/drafts/${ids[1]}`));
      });
    });

    test("saved snippets: added, edited, removed, to their owner only", async () => {
      const { member, member2 } = org();
      let id = 0;
      await replay([{ person: member }, { person: member2, unaware: true }], async () => {
        id = ok(await member.api.post("/saved_snippets", { title: "greeting", content: "Hello there" })).saved_snippet_id;
      });
      await replay([{ person: member }], () => member.api.patch(`/saved_snippets/${id}`, { content: "Hello again" }).then(ok));
      await replay([{ person: member }], () => member.api.delete(`/saved_snippets/${id}`).then(ok));
    });

    test("linkifiers: added, changed, removed, to clients that can read URL templates", async () => {
      const { admin, member } = org();
      let id = 0;
      await replay([{ person: member }, { person: member, params: LEGACY, unaware: true }], async () => {
        id = ok(await admin.api.post("/realm/filters", { pattern: "RP-(?P<id>[0-9]+)", url_template: "https://example.com/rp/{id}" })).id;
      });
      await replay([{ person: member }], () => admin.api.patch(`/realm/filters/${id}`, { pattern: "RQ-(?P<id>[0-9]+)", url_template: "https://example.com/rq/{id}" }).then(ok));
      await replay([{ person: member }], () => admin.api.delete(`/realm/filters/${id}`).then(ok));
    });
  });
}
