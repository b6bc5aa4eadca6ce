import { describe, expect, test } from "bun:test";
import { describeGroupSetting, groupLabel, type GroupSettingChoices } from "../../src/web/client/admin/shared/groupSettingPicker";

const choices: GroupSettingChoices = {
  groups: [
    { id: 1, name: "role:administrators", description: "", members: [], direct_subgroup_ids: [], is_system_group: true, deactivated: false },
    { id: 2, name: "role:nobody", description: "", members: [], direct_subgroup_ids: [], is_system_group: true, deactivated: false },
    { id: 9, name: "Support", description: "", members: [5], direct_subgroup_ids: [], is_system_group: false, deactivated: false },
  ],
  users: [{ user_id: 5, full_name: "Ada", is_active: true, is_bot: false }],
};

describe("the group-setting picker's wording", () => {
  test("system groups get the names people use", () => {
    expect(groupLabel(choices.groups[0])).toBe("Administrators");
    expect(groupLabel(choices.groups[2])).toBe("Support");
  });
  test("a value reads as its group, or as the people and groups it names", () => {
    expect(describeGroupSetting(1, choices)).toBe("Administrators");
    expect(describeGroupSetting({ direct_members: [5], direct_subgroups: [9] }, choices)).toBe("Ada, Support");
    expect(describeGroupSetting({ direct_members: [], direct_subgroups: [] }, choices)).toBe("Nobody");
  });
});
