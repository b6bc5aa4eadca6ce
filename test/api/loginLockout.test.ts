import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ApiClient } from "../helpers/client";
import { postFrom, type RawResponse } from "../helpers/fromAddress";
import { OWNER, createPerson, expectError, login, startInitializedServer, type Person } from "../helpers/seed";
import type { TestServer } from "../helpers/server";

// Logins hash passwords, slowly by design; on a busy machine a test can outlast the 5 s default.
setDefaultTimeout(60_000);

// Small limits so each shows within a test, all different so a test can tell which one acted;
// a window long enough that a slow machine cannot age failures out in the middle of a test
// (expiry has its own server).
const PAIR_LIMIT = 3;
const ADDRESS_LIMIT = 5;
const ACCOUNT_LIMIT = 7;
const WINDOW_SECONDS = 120;

let server: TestServer;
let owner: Person;
let anon: ApiClient;
let nextAddress = 10;
let nextPerson = 0;

/**
 * A loopback address (all of 127.0.0.0/8 is this machine) no earlier test sent from, so tests
 * do not trip each other's limits. The server sees every person's setup login from 127.0.0.1.
 */
const freshAddress = () => {
  const n = nextAddress++;
  return `127.0.${n >> 8}.${n & 255}`;
};
const freshPerson = () => createPerson(owner, anon, `Lockout Person ${nextPerson++}`);

const fetchApiKeyOn = (url: string, username: string, password: string, address: string) => postFrom(address, `${url}/api/v1/fetch_api_key`, { username, password });
const fetchApiKey = (username: string, password: string, address: string) => fetchApiKeyOn(server.url, username, password, address);

async function expectLoggedIn(response: RawResponse, person: { email: string }) {
  expect(response.status).toBe(200);
  expect(response.json.email).toBe(person.email);
}

function expectRateLimited(response: RawResponse, window = WINDOW_SECONDS) {
  expectError({ status: response.status, body: response.json }, "RATE_LIMIT_HIT", 429);
  const retryAfter = response.json["retry-after"];
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(window);
  expect(response.headers["retry-after"]).toBe(String(retryAfter));
  expect(response.json.api_key).toBeUndefined();
}

/** Wrong passwords for `username`, each answered 401, from the addresses `from` gives. */
async function fail(username: string, times: number, from: () => string) {
  for (let i = 0; i < times; i++) {
    const response = await fetchApiKey(username, `wrong guess ${i}`, from());
    expect(response.status).toBe(401);
  }
}

/** Failures for one account spread over addresses, each below the pair limit. */
async function failDistributed(username: string, times: number) {
  let address = freshAddress();
  for (let i = 0; i < times; i++) {
    if (i % (PAIR_LIMIT - 1) === 0) address = freshAddress();
    const response = await fetchApiKey(username, `distributed guess ${i}`, address);
    expect(response.status).toBe(401);
  }
}

beforeAll(async () => {
  server = await startInitializedServer({
    env: {
      PARLEY_LOGIN_FAILURE_LIMIT: String(PAIR_LIMIT),
      PARLEY_LOGIN_ADDRESS_FAILURE_LIMIT: String(ADDRESS_LIMIT),
      PARLEY_LOGIN_ACCOUNT_FAILURE_LIMIT: String(ACCOUNT_LIMIT),
      PARLEY_LOGIN_FAILURE_WINDOW_SECONDS: String(WINDOW_SECONDS),
    },
  });
  anon = new ApiClient(server.url);
  owner = await login(anon, OWNER.email, OWNER.password);
});
afterAll(() => server.dispose());

describe("one account from one address (the pair limit)", () => {
  test("refuses even the right password there once it is reached", async () => {
    const target = await freshPerson();
    const address = freshAddress();
    await fail(target.email.toUpperCase(), PAIR_LIMIT, () => address);
    expectRateLimited(await fetchApiKey(target.email, target.password, address));
    expectRateLimited(await fetchApiKey(target.email, target.password, address));
  });

  test("leaves other accounts at that address, and that account elsewhere, alone", async () => {
    const target = await freshPerson();
    const colleague = await freshPerson();
    const address = freshAddress();
    await fail(target.email, PAIR_LIMIT, () => address);
    expectRateLimited(await fetchApiKey(target.email, target.password, address));
    await expectLoggedIn(await fetchApiKey(colleague.email, colleague.password, address), colleague);
    await expectLoggedIn(await fetchApiKey(target.email, target.password, freshAddress()), target);
    // The lock is on guessing passwords, not on the account: its API key keeps working.
    expect((await target.api.get("/users/me")).status).toBe(200);
  });

  test("holds even an address the account signed in from", async () => {
    const target = await freshPerson();
    const home = freshAddress();
    await expectLoggedIn(await fetchApiKey(target.email, target.password, home), target);
    await fail(target.email, PAIR_LIMIT, () => home);
    expectRateLimited(await fetchApiKey(target.email, target.password, home));
  });

  test("forgives the typos before a right password at that address", async () => {
    const target = await freshPerson();
    const address = freshAddress();
    for (let round = 0; round < 3; round++) {
      await fail(target.email, PAIR_LIMIT - 1, () => address);
      await expectLoggedIn(await fetchApiKey(target.email, target.password, address), target);
    }
  });
});

describe("one address over all accounts (the address limit)", () => {
  test("stops a sprayer, but not the people who signed in from there before", async () => {
    const regular = await freshPerson();
    const newcomer = await freshPerson();
    const office = freshAddress();
    await expectLoggedIn(await fetchApiKey(regular.email, regular.password, office), regular);
    // One guess per name, as a sprayer does: no pair comes near its limit.
    for (let i = 0; i < ADDRESS_LIMIT; i++) expect((await fetchApiKey(`sprayed-${i}@example.com`, "Password1", office)).status).toBe(401);
    expectRateLimited(await fetchApiKey(`sprayed-next@example.com`, "Password1", office));
    expectRateLimited(await fetchApiKey(newcomer.email, newcomer.password, office));
    await expectLoggedIn(await fetchApiKey(regular.email, regular.password, office), regular);
    // The newcomer is held up at that address only.
    await expectLoggedIn(await fetchApiKey(newcomer.email, newcomer.password, freshAddress()), newcomer);
  });

  test("is not wiped by a right password, so an attacker's own account buys no guesses", async () => {
    const accomplice = await freshPerson();
    const bystander = await freshPerson();
    const address = freshAddress();
    for (let i = 0; i < ADDRESS_LIMIT - 1; i++) expect((await fetchApiKey(`wiped-${i}@example.com`, "Password1", address)).status).toBe(401);
    await expectLoggedIn(await fetchApiKey(accomplice.email, accomplice.password, address), accomplice);
    expect((await fetchApiKey(`wiped-last@example.com`, "Password1", address)).status).toBe(401);
    expectRateLimited(await fetchApiKey(bystander.email, bystander.password, address));
  });
});

describe("one account from all addresses (the account limit)", () => {
  test("stops a distributed guesser, but not the owner where they signed in before", async () => {
    const target = await freshPerson();
    const home = freshAddress();
    await expectLoggedIn(await fetchApiKey(target.email, target.password, home), target);
    await failDistributed(target.email, ACCOUNT_LIMIT);
    // A guess from yet another address is refused, right password or not...
    expectRateLimited(await fetchApiKey(target.email, "one more guess", freshAddress()));
    expectRateLimited(await fetchApiKey(target.email, target.password, freshAddress()));
    // ...but the owner at home signs in, through the API and the sign-in page alike.
    await expectLoggedIn(await fetchApiKey(target.email, target.password, home), target);
    const page = await postFrom(home, `${server.url}/login`, { username: target.email, password: target.password });
    expect(page.status).toBe(303);
    expect(String(page.headers["set-cookie"])).toContain("parley_session=");
    // Trust is per account: another person never seen at that address is held up there.
    const housemate = await freshPerson();
    await failDistributed(housemate.email, ACCOUNT_LIMIT);
    expectRateLimited(await fetchApiKey(housemate.email, housemate.password, home));
  });

  test("is not wiped by a right password from a new address", async () => {
    const target = await freshPerson();
    await failDistributed(target.email, ACCOUNT_LIMIT - 1);
    await expectLoggedIn(await fetchApiKey(target.email, target.password, freshAddress()), target);
    await failDistributed(target.email, 1);
    expectRateLimited(await fetchApiKey(target.email, target.password, freshAddress()));
  });

  test("counts the sign-in page and fetch_api_key together", async () => {
    const target = await freshPerson();
    for (let i = 0; i < ACCOUNT_LIMIT; i++) {
      const form = { username: target.email, password: `guess ${i}` };
      const response = i % 2 === 0 ? await postFrom(freshAddress(), `${server.url}/login`, form) : await postFrom(freshAddress(), `${server.url}/api/v1/fetch_api_key`, form);
      expect(response.status).toBe(401);
    }
    expectRateLimited(await fetchApiKey(target.email, target.password, freshAddress()));
    const page = await postFrom(freshAddress(), `${server.url}/login`, { username: target.email, password: target.password });
    expect(page.status).toBe(429);
    expect(Number(page.headers["retry-after"])).toBeGreaterThan(0);
    expect(page.text).not.toContain(target.apiKey);
  });
});

describe("attempts fired all at once", () => {
  test("gain no extra guesses at one account from one address", async () => {
    const target = await freshPerson();
    const address = freshAddress();
    const responses = await Promise.all(Array.from({ length: 4 * PAIR_LIMIT }, (_, i) => fetchApiKey(target.email, `parallel guess ${i}`, address)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401).length).toBe(PAIR_LIMIT);
    expect(statuses.filter((status) => status !== 401).every((status) => status === 429)).toBe(true);
    expectRateLimited(await fetchApiKey(target.email, target.password, address));
  });

  test("gain no extra guesses at one account from many addresses", async () => {
    const target = await freshPerson();
    const responses = await Promise.all(Array.from({ length: 3 * ACCOUNT_LIMIT }, (_, i) => fetchApiKey(target.email, `parallel guess ${i}`, freshAddress())));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401).length).toBe(ACCOUNT_LIMIT);
    expect(statuses.filter((status) => status !== 401).every((status) => status === 429)).toBe(true);
    expectRateLimited(await fetchApiKey(target.email, target.password, freshAddress()));
  });
});

describe("the window", () => {
  test("lets each kind of refusal through again once it has moved on", async () => {
    const window = 2;
    const short = await startInitializedServer({
      env: {
        PARLEY_LOGIN_FAILURE_LIMIT: "1",
        PARLEY_LOGIN_ADDRESS_FAILURE_LIMIT: "2",
        PARLEY_LOGIN_ACCOUNT_FAILURE_LIMIT: "2",
        PARLEY_LOGIN_FAILURE_WINDOW_SECONDS: String(window),
      },
    });
    try {
      const attempt = (username: string, password: string, address: string) => fetchApiKeyOn(short.url, username, password, address);
      const waitOut = (refused: RawResponse) => Bun.sleep(refused.json["retry-after"] * 1000 + 100);
      // The pair.
      expect((await attempt(OWNER.email, "wrong guess", "127.0.1.1")).status).toBe(401);
      let refused = await attempt(OWNER.email, OWNER.password, "127.0.1.1");
      expectRateLimited(refused, window);
      await waitOut(refused);
      await expectLoggedIn(await attempt(OWNER.email, OWNER.password, "127.0.1.1"), OWNER);
      // The account, from addresses the owner never signed in from.
      expect((await attempt(OWNER.email, "wrong guess", "127.0.1.2")).status).toBe(401);
      expect((await attempt(OWNER.email, "wrong guess", "127.0.1.3")).status).toBe(401);
      refused = await attempt(OWNER.email, OWNER.password, "127.0.1.4");
      expectRateLimited(refused, window);
      await waitOut(refused);
      await expectLoggedIn(await attempt(OWNER.email, OWNER.password, "127.0.1.4"), OWNER);
      // The address.
      expect((await attempt("nobody-1@example.com", "wrong guess", "127.0.1.5")).status).toBe(401);
      expect((await attempt("nobody-2@example.com", "wrong guess", "127.0.1.5")).status).toBe(401);
      refused = await attempt(OWNER.email, OWNER.password, "127.0.1.5");
      expectRateLimited(refused, window);
      await waitOut(refused);
      await expectLoggedIn(await attempt(OWNER.email, OWNER.password, "127.0.1.5"), OWNER);
    } finally {
      await short.dispose();
    }
  });
});
