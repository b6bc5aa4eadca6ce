/**
 * The second client of the stall test, in a process of its own so that nothing the test
 * process does (building a large request, parsing a large answer) delays it: GET /users/me
 * again and again, printing each one's start and end (wall-clock milliseconds) as a line.
 *
 *   bun test/stall/watch.ts URL EMAIL API_KEY
 */
export {};

const [url, email, apiKey] = process.argv.slice(2);
const headers = { authorization: `Basic ${Buffer.from(`${email}:${apiKey}`).toString("base64")}` };
const clock = () => performance.timeOrigin + performance.now();
for (;;) {
  const start = clock();
  const response = await fetch(`${url}/api/v1/users/me`, { headers });
  await response.text();
  if (response.status !== 200) throw new Error(`GET /users/me answered ${response.status}`);
  process.stdout.write(`${start.toFixed(3)} ${clock().toFixed(3)}\n`);
}
