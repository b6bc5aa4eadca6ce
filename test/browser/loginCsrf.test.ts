import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { describeInBrowser, launchBrowser, newContext, signIn } from "../helpers/browser";
import { createPerson, seedOrg, type Org, type Person } from "../helpers/seed";

/**
 * Login CSRF in a real browser: a hostile page on another origin posts Parley's sign-in form
 * with the attacker's credentials (directly, and from a sandboxed frame, whose Origin is
 * "null"). The visitor's browser must not end up signed in as the attacker; the same visitor
 * signing in on Parley's own page still works.
 */

setDefaultTimeout(60_000);

let org: Org;
let attacker: Person;
let browser: Browser;
let hostile: ReturnType<typeof Bun.serve>;

/** A page that submits Parley's sign-in form as soon as it loads. */
const autoSubmit = (action: string, person: Person) => `<form method="post" action="${action}">
  <input name="username" value="${person.email}"><input name="password" value="${person.password}">
</form><script>document.forms[0].submit()</script>`;

beforeAll(async () => {
  [org, browser] = await Promise.all([seedOrg(), launchBrowser()]);
  attacker = await createPerson(org.owner, org.anon, "Eve Attacker");
  const action = `${org.server.url}/login`;
  // Another origin: another loopback address, as another site would be another host.
  hostile = Bun.serve({
    hostname: "127.0.0.2",
    port: 0,
    fetch(request) {
      const page = new URL(request.url).pathname === "/framed"
        ? `<iframe sandbox="allow-forms allow-scripts" srcdoc="${autoSubmit(action, attacker).replace(/"/g, "&quot;")}"></iframe>`
        : autoSubmit(action, attacker);
      return new Response(`<!doctype html><title>Win a prize</title>${page}`, { headers: { "content-type": "text/html" } });
    },
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  hostile?.stop(true);
  await org?.server.dispose();
});

/** 403 once a frame of the page shows Parley's answer to the foreign form, the CSRF refusal. */
async function refusalShown(page: Page): Promise<number> {
  for (;;) {
    for (const frame of page.frames()) {
      if (frame.url() !== `${org.server.url}/login`) continue;
      const text = await frame.content().catch(() => "");
      if (text.includes("CSRF_FAILED") && text.includes("sent from another site")) return 403;
    }
    await Bun.sleep(100);
  }
}

const sessionCookie = async (context: BrowserContext) => (await context.cookies(org.server.url)).find((cookie) => cookie.name === "parley_session");

describeInBrowser("a hostile page posting the sign-in form", () => {
  for (const [name, path] of [
    ["directly", "/"],
    ["from a sandboxed frame", "/framed"],
  ] as const) {
    test(`${name} does not sign the visitor in as the attacker`, async () => {
      const context = await newContext(browser);
      const page = await context.newPage();
      const answered = page.waitForResponse((response) => response.url() === `${org.server.url}/login` && response.request().method() === "POST").then((response) => response.status());
      await page.goto(`http://127.0.0.2:${hostile.port}${path}`);
      // The answer's event can go missing for a cross-site frame (its own renderer process), so
      // the refusal is also looked for where the form's frame shows it.
      const status = await Promise.race([answered, refusalShown(page)]);
      expect(status).toBe(403);
      expect(await sessionCookie(context)).toBeUndefined();
      // Opening Parley afterwards asks the visitor to sign in: nobody is signed in.
      const visit = await context.newPage();
      await visit.goto(`${org.server.url}/`);
      expect(new URL(visit.url()).pathname).toBe("/login");
      await context.close();
    });
  }

  test("signing in on Parley's own page still works, and signs in the visitor", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await signIn(page, org.server.url, org.member.email, org.member.password);
    expect(new URL(page.url()).pathname).toBe("/");
    expect(await sessionCookie(context)).toBeDefined();
    const me = await page.evaluate(async () => (await fetch("/api/v1/users/me")).json());
    expect(me.email).toBe(org.member.email);
    await context.close();
  });
});
