import { describe, test } from "bun:test";
import { png } from "../../helpers/images";
import { ok, type Org, type Person } from "../../helpers/seed";
import { LEGACY, replay } from "./harness";

/** Custom emoji: each change sends everyone the whole set, deactivated emoji included. */
export function realmEmojiScenarios(org: () => Org) {
  async function upload(person: Person, name: string) {
    const form = new FormData();
    form.append("filename", new Blob([png()], { type: "image/png" }), "emoji.png");
    const authorization = `Basic ${Buffer.from(`${person.email}:${person.apiKey}`).toString("base64")}`;
    const response = await fetch(new URL(`/api/v1/realm/emoji/${name}`, org().server.url), { method: "POST", headers: { authorization }, body: form });
    ok({ status: response.status, body: (await response.json()) as Record<string, unknown> });
  }

  describe("custom emoji", () => {
    test("added and deactivated, to everyone, guests and old clients included", async () => {
      const { member, member2, guest } = org();
      await replay([{ person: member2 }, { person: guest }, { person: member2, params: LEGACY }], () => upload(member, "replayed"));
      await replay([{ person: member2 }, { person: guest }], () => member.api.delete("/realm/emoji/replayed").then(ok));
    });
  });
}
