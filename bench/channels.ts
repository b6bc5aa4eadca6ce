/**
 * Channel figures: one subscribe call putting many users into many channels, and GET /streams
 * (plus GET /users/me/subscriptions) for a member of an organization with many channels.
 * The organization is built in-process straight through the actions, then `parley serve`
 * answers the timed requests over loopback HTTP.
 *
 *   bun bench/channels.ts [--users 1000] [--channels 100] [--org-channels 2000] [--runs 20]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { NewChannelSettings } from "../src/access/channelCreation";
import { createChannels } from "../src/actions/channels";
import { addSubscriptions } from "../src/actions/subscriptionChanges";
import { addAccount } from "../src/actions/users";
import { listChannels } from "../src/db/channels";
import { closeDatabase, openDatabase } from "../src/db/client";
import { write } from "../src/db/transaction";
import { findUserByEmail, type User } from "../src/db/users";
import { Role } from "../src/model/roles";
import { OWNER } from "../test/helpers/seed";
import { TestServer, runParley } from "../test/helpers/server";

const { values: options } = parseArgs({
  options: {
    users: { type: "string", default: "1000" },
    channels: { type: "string", default: "100" },
    "org-channels": { type: "string", default: "2000" },
    runs: { type: "string", default: "20" },
  },
});
const USERS = Number(options.users);
const TARGET_CHANNELS = Number(options.channels);
const ORG_CHANNELS = Number(options["org-channels"]);
const RUNS = Number(options.runs);

const PUBLIC: NewChannelSettings = { inviteOnly: false, isWebPublic: false, historyPublicToSubscribers: undefined, messageRetentionDays: null, isDefault: false, groupSettings: {} };
const PRIVATE: NewChannelSettings = { ...PUBLIC, inviteOnly: true };

/** The organization: USERS members, a benchmark member, ORG_CHANNELS channels (a tenth private). */
async function buildOrganization(dataDir: string) {
  openDatabase(dataDir);
  try {
    return await write(async (tx) => {
      const owner = (await findUserByEmail(tx, OWNER.email))!;
      const people: User[] = [];
      for (let i = 0; i < USERS; i++) people.push(await addAccount(tx, { email: `user${i}@bench.example`, fullName: `User ${i}`, role: Role.MEMBER, passwordHash: null }));
      const member = await addAccount(tx, { email: "member@bench.example", fullName: "Bench Member", role: Role.MEMBER, passwordHash: null });
      const named = (i: number) => ({ name: `channel-${String(i).padStart(5, "0")}`, description: `Channel ${i}` });
      const all = Array.from({ length: ORG_CHANNELS }, (_, i) => i);
      await createChannels(tx, owner, all.filter((i) => i % 10 !== 9).map(named), PUBLIC);
      await createChannels(tx, owner, all.filter((i) => i % 10 === 9).map(named), PRIVATE);
      // The member is in 50 channels, some of them private.
      const channels = await listChannels(tx, { includeArchived: false });
      await addSubscriptions(tx, channels.filter((_, i) => i % 40 === 9 || i % 40 === 0), [member]);
      return { ownerKey: owner.apiKey, member, people, targets: channels.filter((c) => !c.inviteOnly).slice(0, TARGET_CHANNELS).map((c) => c.name) };
    });
  } finally {
    closeDatabase();
  }
}

async function timed<T>(action: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now();
  const result = await action();
  return { ms: performance.now() - started, result };
}

async function expectSuccess(response: Response) {
  const body = await response.json();
  if (response.status !== 200 || body.result !== "success") throw new Error(`request failed: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

const basic = (email: string, key: string) => ({ authorization: `Basic ${Buffer.from(`${email}:${key}`).toString("base64")}` });

async function repeated(label: string, url: string, headers: Record<string, string>) {
  for (let i = 0; i < 3; i++) await expectSuccess(await fetch(url, { headers }));
  const times: number[] = [];
  let size = 0;
  for (let i = 0; i < RUNS; i++) {
    const { ms, result } = await timed(async () => (await fetch(url, { headers })).text());
    times.push(ms);
    size = result.length;
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(1);
  console.log(`${label.padEnd(52)} median ${at(0.5).padStart(7)} ms   p90 ${at(0.9).padStart(7)} ms   ${(size / 1024).toFixed(0)} KiB`);
}

const dataDir = mkdtempSync(join(tmpdir(), "parley-bench-channels-"));
let server: TestServer | null = null;
try {
  const init = runParley(["init", "--data-dir", dataDir, "--org-name", "Bench", "--email", OWNER.email, "--password", OWNER.password, "--full-name", OWNER.fullName]);
  if (init.exitCode !== 0) throw new Error(`parley init failed: ${init.stderr}`);
  const setup = await timed(async () => buildOrganization(dataDir));
  const { ownerKey, member, people, targets } = setup.result;
  console.log(`organization: ${USERS + 2} users, ${ORG_CHANNELS} channels (built in ${(setup.ms / 1000).toFixed(1)} s)`);

  server = await TestServer.start({ dataDir });
  const owner = basic(OWNER.email, ownerKey);
  const form = { ...owner, "content-type": "application/x-www-form-urlencoded" };
  const subscribeBody = (names: string[]) =>
    new URLSearchParams({ subscriptions: JSON.stringify(names.map((name) => ({ name }))), principals: JSON.stringify(people.map((p) => p.id)) });

  const existing = await timed(async () => expectSuccess(await fetch(`${server!.url}/api/v1/users/me/subscriptions`, { method: "POST", headers: form, body: subscribeBody(targets) })));
  const added = Object.values(existing.result.subscribed as Record<string, string[]>).reduce((n, names) => n + names.length, 0);
  console.log(`${`subscribe ${USERS} users to ${TARGET_CHANNELS} existing channels`.padEnd(52)} ${existing.ms.toFixed(0).padStart(7)} ms   (${added} subscriptions)`);

  const fresh = Array.from({ length: TARGET_CHANNELS }, (_, i) => `fresh-${i}`);
  const created = await timed(async () => expectSuccess(await fetch(`${server!.url}/api/v1/users/me/subscriptions`, { method: "POST", headers: form, body: subscribeBody(fresh) })));
  console.log(`${`create ${TARGET_CHANNELS} channels + subscribe ${USERS} users`.padEnd(52)} ${created.ms.toFixed(0).padStart(7)} ms`);

  const asMember = basic(member.email, member.apiKey);
  await repeated(`GET /streams (member, ${ORG_CHANNELS + TARGET_CHANNELS} channels)`, `${server.url}/api/v1/streams`, asMember);
  await repeated("GET /streams?include_all=true (owner)", `${server.url}/api/v1/streams?include_all=true`, owner);
  await repeated(
    `GET /users/me/subscriptions?include_subscribers (user in ${2 * TARGET_CHANNELS} channels)`,
    `${server.url}/api/v1/users/me/subscriptions?include_subscribers=true`,
    basic(people[0].email, people[0].apiKey),
  );
} finally {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
