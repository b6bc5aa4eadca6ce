import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { seedOrg, type Org } from "../../helpers/seed";
import { SEED_TIMEOUT_MS } from "../support";
import { APPLIERS } from "./appliers";
import { SEEN_KINDS } from "./harness";
import { declaredEventKinds } from "./kinds";
import { channelScenarios } from "./channels";
import { peopleScenarios } from "./people";

/**
 * Every event kind replayed: snapshot + events = fresh snapshot, per area, for people of
 * different roles and clients of different ages. The last check holds the suite to the
 * source: each kind events/kinds declares needs an applier and a scenario that produced it.
 */

let org: Org;

beforeAll(async () => {
  org = await seedOrg();
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

peopleScenarios(() => org);
channelScenarios(() => org);

/** Kinds the registry makes from declared ones for older clients, beyond the declared union. */
const DERIVED_KINDS = ["user_group remove"];

describe("coverage", () => {
  test("every declared event kind has an applier, and a scenario replayed it", () => {
    const declared = declaredEventKinds();
    expect(declared.length).toBeGreaterThan(30);
    const kinds = [...declared, ...DERIVED_KINDS];
    expect(kinds.filter((kind) => !(kind in APPLIERS))).toEqual([]);
    expect(Object.keys(APPLIERS).filter((kind) => !kinds.includes(kind))).toEqual([]);
    expect(kinds.filter((kind) => !SEEN_KINDS.has(kind))).toEqual([]);
  });
});
