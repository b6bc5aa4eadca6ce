/**
 * Makes a small demo organization on a running Parley server, through the API only, and writes
 * a zuliprc file per person so that Zulip clients (zulip-terminal, the python `zulip` library)
 * can sign in at once.
 *
 * Usage:
 *   bun src/main.ts init --data-dir /tmp/demo --org-name "Demo Org" \
 *     --email owner@example.com --password owner-password --url http://127.0.0.1:9991
 *   bun --max-http-header-size=1048576 src/main.ts serve --data-dir /tmp/demo --host 127.0.0.1 --port 9991 &
 *   bun scripts/seed-demo.ts --url http://127.0.0.1:9991 --email owner@example.com \
 *     --password owner-password --out /tmp/demo-rc
 *
 * What it makes: the owner plus Ada Admin, Mel Member, Max Member, Nora Newcomer (members), all
 * with the password "<First>-password"; channels "general" (everyone), "engineering" (all but
 * Nora), "design" and "random" (a few people); several topics with a conversation in each, a
 * direct-message conversation and a group one, reactions, an edited message, a starred one, and
 * a user status. Mel's own messages are read, the rest are left unread for her.
 * Running it twice on the same server fails at the first person that already exists.
 *
 * It writes OUT/<first name lowercased>.zuliprc (owner.zuliprc for the owner): [api] email,
 * key, site, as zulip-terminal reads it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    url: { type: "string", default: "http://127.0.0.1:9991" },
    email: { type: "string", default: "owner@example.com" },
    password: { type: "string", default: "owner-password" },
    out: { type: "string", default: "/tmp/demo-rc" },
  },
});
const SITE = values.url!.replace(/\/$/, "");

interface Person {
  id: number;
  email: string;
  apiKey: string;
  name: string;
}

async function call(person: Person | null, method: string, path: string, params: Record<string, unknown> = {}) {
  const url = new URL(`/api/v1${path}`, SITE);
  const headers: Record<string, string> = {};
  if (person) headers.authorization = `Basic ${btoa(`${person.email}:${person.apiKey}`)}`;
  const encoded = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) encoded.set(name, typeof value === "string" ? value : JSON.stringify(value));
  let body: URLSearchParams | undefined;
  if (method === "GET") url.search = encoded.toString();
  else {
    body = encoded;
    headers["content-type"] = "application/x-www-form-urlencoded";
  }
  const response = await fetch(url, { method, headers, body });
  const answer = (await response.json()) as Record<string, any>;
  if (answer.result !== "success") throw new Error(`${method} ${path} failed (${response.status}): ${JSON.stringify(answer)}`);
  return answer;
}

async function login(email: string, password: string, name: string): Promise<Person> {
  const answer = await call(null, "POST", "/fetch_api_key", { username: email, password });
  return { id: answer.user_id, email: answer.email, apiKey: answer.api_key, name };
}

async function createPerson(owner: Person, name: string, role?: number): Promise<Person> {
  const first = name.split(" ")[0];
  const email = `${first.toLowerCase()}@example.com`;
  const password = `${first}-password`;
  await call(owner, "POST", "/users", { email, password, full_name: name });
  const person = await login(email, password, name);
  if (role !== undefined) await call(owner, "PATCH", `/users/${person.id}`, { role });
  return person;
}

const subscribe = (person: Person, names: string[], principals?: number[], description = "") =>
  call(person, "POST", "/users/me/subscriptions", { subscriptions: names.map((name) => ({ name, description })), ...(principals ? { principals } : {}) });

const say = async (person: Person, channel: string, topic: string, content: string): Promise<number> =>
  (await call(person, "POST", "/messages", { type: "channel", to: channel, topic, content })).id;

const dm = async (person: Person, to: number[], content: string): Promise<number> => (await call(person, "POST", "/messages", { type: "direct", to, content })).id;

const react = (person: Person, messageId: number, emojiName: string) => call(person, "POST", `/messages/${messageId}/reactions`, { emoji_name: emojiName });

function writeZuliprc(person: Person, fileName: string) {
  writeFileSync(join(values.out!, `${fileName}.zuliprc`), `[api]\nemail=${person.email}\nkey=${person.apiKey}\nsite=${SITE}\n`, { mode: 0o600 });
}

const owner = await login(values.email!, values.password!, "Owner");
const admin = await createPerson(owner, "Ada Admin", 200);
const mel = await createPerson(owner, "Mel Member");
const max = await createPerson(owner, "Max Member");
const nora = await createPerson(owner, "Nora Newcomer");
const everyone = [owner, admin, mel, max, nora];

await subscribe(owner, ["general"], everyone.map((p) => p.id), "Everything and anything");
await subscribe(owner, ["engineering"], [owner, admin, mel, max].map((p) => p.id), "Building **Parley**");
await subscribe(admin, ["design"], [admin, mel].map((p) => p.id), "Pixels and words");
await subscribe(max, ["random"], [max, nora, owner].map((p) => p.id), "Off topic");

await say(owner, "general", "welcome", "Welcome to the demo organization, everyone! :wave:");
const hello = await say(admin, "general", "welcome", "Glad to be here. Say hi to @**Mel Member** and @**Max Member**.");
await say(mel, "general", "welcome", "Hi all!");
await say(nora, "general", "welcome", "Hello, I'm new here.");
await say(owner, "general", "lunch plans", "Pizza on Friday?");
const pizza = await say(max, "general", "lunch plans", "Yes please, **pepperoni**.");

await say(admin, "engineering", "release 1.0", "The release branch is cut. Remaining:\n* docs\n* changelog\n* `npm run build`");
const review = await say(max, "engineering", "release 1.0", "I'll take the changelog.");
await say(mel, "engineering", "release 1.0", "Docs are mine.");
await say(owner, "engineering", "flaky tests", "The events test timed out twice today:\n```\nerror: timed out after 60000ms\n```");
await say(max, "engineering", "flaky tests", "Looking into it.");

const draft = await say(admin, "design", "logo", "First draft of the logo is ready for review.");
await say(mel, "design", "logo", "Looks great, maybe a darker blue?");
await say(max, "random", "cats", "Obligatory cat picture thread.");
await say(nora, "random", "cats", "Mine is asleep on my keyboard.");

const directToMel = await dm(max, [mel.id], "Hey Mel, got a minute for the release notes?");
await dm(mel, [max.id], "Sure, after lunch.");
await dm(admin, [mel.id, max.id], "Group check-in: how is the release going?");

await react(mel, hello, "wave");
await react(max, hello, "wave");
await react(owner, pizza, "pizza");
await react(mel, review, "thumbs_up");
await react(admin, draft, "heart");
await react(mel, directToMel, "thumbs_up");

await call(max, "PATCH", `/messages/${review}`, { content: "I'll take the changelog (and the release notes)." });
await call(mel, "POST", "/messages/flags", { messages: [draft], op: "add", flag: "starred" });
await call(max, "POST", "/users/me/status", { status_text: "Shipping 1.0", emoji_name: "ship" });

mkdirSync(values.out!, { recursive: true });
writeZuliprc(owner, "owner");
for (const person of [admin, mel, max, nora]) writeZuliprc(person, person.name.split(" ")[0].toLowerCase());
console.log(`Demo organization seeded on ${SITE}; zuliprc files in ${values.out}: ${["owner", "ada", "mel", "max", "nora"].map((n) => `${n}.zuliprc`).join(", ")}`);
