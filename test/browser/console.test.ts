import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { collectPageErrors, describeInBrowser, launchBrowser, newContext, screenshots, signIn } from "../helpers/browser";
import { ok, seedOrg, type Org } from "../helpers/seed";

let org: Org;
let browser: Browser;

beforeAll(async () => {
  org = await seedOrg({ rateLimits: true });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await org?.server.stop();
});

describeInBrowser("the admin console's frame", () => {
  test("an administrator signs in to the chat, opens the console and lands on People, which lists everyone", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await signIn(page, org.server.url, org.admin.email, org.admin.password);
    expect(new URL(page.url()).pathname).toBe("/");
    await page.goto(`${org.server.url}/admin/`);
    await page.getByRole("heading", { name: "People" }).waitFor();
    await page.locator(`tr[data-user-id="${org.member.id}"]`).waitFor();
    await screenshots(page, "admin-people");
    // Search by name or e-mail, any case; clearing it shows everyone again.
    await page.getByLabel("Search people").fill("MONA");
    await page.locator(`tr[data-user-id="${org.member.id}"]`).waitFor({ state: "detached" });
    expect(await page.locator("tbody tr").count()).toBe(1);
    await page.getByLabel("Search people").fill("gus.guest@");
    await page.locator(`tr[data-user-id="${org.guest.id}"]`).waitFor();
    expect(await page.locator("tbody tr").count()).toBe(1);
    await page.getByLabel("Search people").fill("");
    await page.locator(`tr[data-user-id="${org.member.id}"]`).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});

describeInBrowser("the person's colour scheme", () => {
  test("the console follows it, whatever the device prefers", async () => {
    ok(await org.admin.api.patch("/settings", { color_scheme: 2 }));
    const context = await newContext(browser);
    const page = await context.newPage();
    await signIn(page, org.server.url, org.admin.email, org.admin.password);
    await page.goto(`${org.server.url}/admin/`);
    await page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
    await page.locator(`tr[data-user-id="${org.member.id}"]`).waitFor();
    await screenshots(page, "admin-people-dark");
    ok(await org.admin.api.patch("/settings", { color_scheme: 3 }));
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.theme === "light");
    await context.close();
  });
});

describeInBrowser("the sign-in page", () => {
  test("looks like the rest, light and dark, and refuses a wrong password in words", async () => {
    for (const dark of [false, true]) {
      const context = await newContext(browser, { dark });
      const page = await context.newPage();
      await page.goto(`${org.server.url}/login`);
      await page.getByLabel("E-mail address").fill(org.member.email);
      await page.getByLabel("Password").fill("not the password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByText("Your username or password is incorrect").waitFor();
      await screenshots(page, dark ? "sign-in-dark" : "sign-in");
      await context.close();
    }
  });
});
