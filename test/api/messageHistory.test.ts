import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, uniqueName } from "../helpers/channels";
import { expectError, ok, type Org, type Person, seedOrg } from "../helpers/seed";
import { channelMessage, directMessage, sendOk } from "../helpers/sending";

let org: Org;
let channel: string;
let ids: number[];

const LARGER_THAN_MAX = 10_000_000_000_000_000;

async function fetchMessages(person: Person, params: Record<string, unknown>) {
  return ok(await person.api.get("/messages", params));
}

beforeAll(async () => {
  org = await seedOrg();
  channel = uniqueName("history");
  await createChannel(org, org.member, { principals: [org.member.id, org.member2.id] }, channel);
  ids = [];
  for (let i = 0; i < 5; i++) ids.push((await sendOk(org.member, channelMessage(channel, "range", `message ${i}`))).id);
});

afterAll(() => org.server.dispose());

describe("GET /messages anchors", () => {
  test("smoke", async () => {
    const body = await fetchMessages(org.member2, { anchor: "newest", num_before: 3, num_after: 0, narrow: [{ operator: "channel", operand: channel }] });
    console.log(JSON.stringify(body, null, 1));
  });
});
