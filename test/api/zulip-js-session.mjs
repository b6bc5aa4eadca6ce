// Drives zulip-js, unmodified, the way an integration would, and prints what each call answered.
// It runs under Node, the runtime zulip-js is written for: under Bun, its `form-data` bodies
// reach Bun's native fetch and are sent as the text "[object FormData]".
//
//   node zulip-js-session.mjs '{"config": {...zulip-js config}, "calls": [{"call": "users.me.getProfile", "args": []}]}'
import zulipInit from "zulip-js";

const { config, calls } = JSON.parse(process.argv[2]);
const client = await zulipInit(config);
const results = [];
for (const { call, args = [] } of calls) {
  const method = call.split(".").reduce((object, key) => object[key], client);
  results.push(await method(...args));
}
console.log(JSON.stringify({ apiKey: client.config.apiKey, results }));
