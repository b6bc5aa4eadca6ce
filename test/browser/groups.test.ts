import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { collectPageErrors, describeInBrowser, launchBrowser, newContext, screenshots, signIn } from "../helpers/browser";
import { ok, seedOrg, type Org } from "../helpers/seed";
import { systemGroupId } from "../events/support";

/** The admin console's User groups: create with members and a subgroup, edit, permissions, deactivate. */

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

const groupNamed = async (name: string) => (ok(await org.admin.api.get("/user_groups", { include_deactivated_groups: true })).user_groups as any[]).find((group) => group.name === name);

async function openGroups(page: Page) {
  await signIn(page, org.server.url, org.owner.email, org.owner.password);
  await page.goto(`${org.server.url}/admin/groups`);
  await page.getByRole("heading", { name: "User groups" }).waitFor();
}

describeInBrowser("user groups in the admin console", () => {
  test("an owner creates a group with members and a subgroup, changes a permission, and deactivates it", async () => {
    // A group to nest, made over the API.
    const support = ok(await org.admin.api.post("/user_groups/create", { name: "Support", description: "First line", members: [org.member2.id] })).group_id;
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await openGroups(page);
    await page.locator(`tr[data-group-id="${support}"]`).waitFor();
    await screenshots(page, "admin-groups");

    await page.getByRole("button", { name: "New group" }).click();
    const dialog = page.getByRole("dialog", { name: "New user group" });
    await dialog.getByLabel("Name").fill("Engineering");
    await dialog.getByLabel("Description").fill("Builds things");
    await dialog.getByLabel("Add a person").selectOption({ label: "Mel Member" });
    await dialog.getByLabel("Add a person").selectOption({ label: "Mona Moderator" });
    await dialog.getByRole("button", { name: "Remove Mona Moderator" }).click();
    await dialog.getByLabel("Add a subgroup").selectOption({ label: "Support" });
    await dialog.getByRole("button", { name: "Create group" }).click();

    // The new group's page opens.
    await page.getByRole("heading", { name: "Engineering" }).waitFor();
    const created = await groupNamed("Engineering");
    expect(created).toMatchObject({ description: "Builds things", members: [org.member.id], direct_subgroup_ids: [support], deactivated: false });
    expect(new URL(page.url()).pathname).toBe(`/admin/groups/${created.id}`);

    // Members change at once.
    await page.getByLabel("Add a person").selectOption({ label: "Max Member" });
    await page.getByRole("button", { name: "Remove Max Member" }).waitFor();
    expect((await groupNamed("Engineering")).members.sort()).toEqual([org.member.id, org.member2.id].sort());

    // Who can mention it: administrators, then specific people.
    await page.getByLabel("Who can mention this group").selectOption({ label: "Administrators" });
    await page.getByLabel("Who can add members", { exact: true }).selectOption({ label: "Specific people or groups…" });
    await page.getByLabel("Add to Who can add members").selectOption({ label: "Mel Member" });
    await screenshots(page, "admin-groups-edit");
    await page.getByRole("button", { name: "Save permissions" }).click();
    await page.getByText("Permissions saved.").waitFor();
    const afterPermissions = await groupNamed("Engineering");
    expect(afterPermissions.can_mention_group).toBe(systemGroupId(org.server, "role:administrators"));
    // The creator, kept as a chip when switching to specific people, and the member added.
    expect(afterPermissions.can_add_members_group.direct_members.sort()).toEqual([org.owner.id, org.member.id].sort());

    // Rename.
    await page.getByLabel("Name", { exact: true }).fill("Engineers");
    await page.getByRole("button", { name: "Save name and description" }).click();
    await page.getByRole("heading", { name: "Engineers" }).waitFor();
    expect((await groupNamed("Engineers")).id).toBe(created.id);

    // Deactivate from its page, then reactivate from the list.
    page.once("dialog", (prompt) => prompt.accept());
    await page.getByRole("button", { name: "Deactivate group" }).click();
    await page.getByText("This group is deactivated").waitFor();
    expect((await groupNamed("Engineers")).deactivated).toBe(true);
    await page.getByRole("link", { name: "← All user groups" }).click();
    await page.getByLabel("Show").selectOption("deactivated");
    const row = page.locator(`tr[data-group-id="${created.id}"]`);
    await row.getByRole("button", { name: "Reactivate" }).click();
    await page.getByText("Engineers was reactivated.").waitFor();
    expect((await groupNamed("Engineers")).deactivated).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  test("in dark mode, on a phone, the list and a group's page read well", async () => {
    const context = await newContext(browser, { dark: true, phone: true });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await openGroups(page);
    await screenshots(page, "admin-groups-dark");
    const support = await groupNamed("Support");
    await page.goto(`${org.server.url}/admin/groups/${support.id}`);
    await page.getByRole("heading", { name: "Support" }).waitFor();
    await screenshots(page, "admin-groups-edit-dark");
    expect(errors).toEqual([]);
    await context.close();
  });
});
