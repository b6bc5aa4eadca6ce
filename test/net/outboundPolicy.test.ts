import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { LOCAL_SPELLINGS } from "../helpers/localSpellings";
import { checkDestination, configureOutboundPolicy, refusalAtFirstSight, RequestRefused, type Resolver } from "../../src/net/outboundPolicy";

/**
 * The outgoing-request rule (net/outboundPolicy.ts) case by case, with the name lookup given
 * by the test: which URLs may be called, which are refused and why, and which address the
 * request is to connect to.
 */

const OWN_URL = "https://chat.example.com";
const OWN_PORT = 8080;

/** A resolver answering from a table, counting its lookups. */
function tableResolver(table: Record<string, string[]>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (host: string) => {
    calls.push(host);
    if (!(host in table)) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return table[host];
  };
  return Object.assign(resolve, { calls });
}

const resolver = tableResolver({
  "hooks.example.net": ["93.184.215.14"],
  "dual.example.net": ["2001:db8::1", "93.184.215.15"],
  "internal.example.net": ["10.1.2.3"],
  "sneaky.example.net": ["93.184.215.14", "127.0.0.1"],
  "mapped.example.net": ["::ffff:7f00:1"],
  "metadata.example.net": ["169.254.169.254"],
  "zoned.example.net": ["fe80::1%eth0"],
  "chat.example.com": ["203.0.113.5"],
});

const refusal = async (url: string) => {
  try {
    await checkDestination(url, { ownUrl: OWN_URL, resolve: resolver });
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(RequestRefused);
    return (error as Error).message;
  }
};

describe("without PARLEY_WEBHOOK_ALLOW_LOOPBACK", () => {
  beforeAll(() => configureOutboundPolicy({ allowLoopback: false, ownPort: OWN_PORT }));
  afterAll(() => configureOutboundPolicy({ allowLoopback: false, ownPort: null }));

  test("refuses loopback, unspecified and link-local destinations in every spelling, at first sight and at the request", async () => {
    for (const url of LOCAL_SPELLINGS(9000)) {
      expect([url, refusalAtFirstSight(url, OWN_URL)]).toEqual([url, expect.stringContaining("resolves to a local address")]);
      expect([url, await refusal(url)]).toEqual([url, expect.stringContaining("refused unless PARLEY_WEBHOOK_ALLOW_LOOPBACK is set")]);
    }
    expect(refusalAtFirstSight("http://x.localhost.:9000/", OWN_URL)).toBe("the URL's host 'x.localhost.' resolves to a local address (127.0.0.1), which is refused unless PARLEY_WEBHOOK_ALLOW_LOOPBACK is set");
    // Local names are never asked of the resolver.
    expect(resolver.calls).toEqual([]);
  });

  test("refuses a name when any of its addresses is local, whatever the spelling the resolver answers", async () => {
    expect(await refusal("http://sneaky.example.net/hook")).toContain("'sneaky.example.net' resolves to a local address (127.0.0.1)");
    expect(await refusal("http://mapped.example.net/hook")).toContain("(::ffff:7f00:1)");
    expect(await refusal("http://metadata.example.net/hook")).toContain("(169.254.169.254)");
    expect(await refusal("http://zoned.example.net/hook")).toContain("(fe80::1%eth0)");
    // A name is only known local once resolved: at first sight it passes.
    expect(refusalAtFirstSight("http://sneaky.example.net/hook", OWN_URL)).toBeNull();
  });

  test("refuses a name that does not resolve, with the name", async () => {
    expect(await refusal("http://nowhere.invalid/hook")).toBe("the host name 'nowhere.invalid' does not resolve");
  });

  test("a lookup that failed for another reason is not a refusal: it is tried again later", async () => {
    const failing: Resolver = async () => {
      throw Object.assign(new Error("getaddrinfo EAI_AGAIN"), { code: "EAI_AGAIN" });
    };
    const error = await checkDestination("http://hooks.example.net/", { ownUrl: OWN_URL, resolve: failing }).catch((caught) => caught);
    expect(error).not.toBeInstanceOf(RequestRefused);
    expect(error.message).toContain("could not look up the host name 'hooks.example.net' (EAI_AGAIN)");
  });

  test("refuses other schemes and what is not a URL, at first sight too", async () => {
    for (const url of ["ftp://hooks.example.net/", "file:///etc/passwd", "javascript:alert(1)", "gopher://127.0.0.1:25/"]) {
      expect(await refusal(url)).toBe("the URL must be http or https");
      expect(refusalAtFirstSight(url, OWN_URL)).toBe("the URL must be http or https");
    }
    expect(await refusal("not a url")).toBe("'not a url' is not a valid URL");
  });

  test("allows public and private-network addresses, and other ports of the organization's host", async () => {
    for (const url of ["http://10.1.2.3:8080/hook", "http://192.168.1.20/hook", "http://[fd00::1]/hook", "https://93.184.215.14/hook", "http://chat.example.com:9000/hook", "http://internal.example.net/hook", "https://hooks.example.net./hook"]) {
      expect([url, await refusal(url)]).toEqual([url, null]);
      expect([url, refusalAtFirstSight(url, OWN_URL)]).toEqual([url, null]);
    }
  });

  test("connects to the address it checked, an IPv4 one first, resolving once", async () => {
    const calls = resolver.calls.length;
    expect((await checkDestination("https://hooks.example.net/hook", { ownUrl: OWN_URL, resolve: resolver })).address).toBe("93.184.215.14");
    expect((await checkDestination("https://dual.example.net/hook", { ownUrl: OWN_URL, resolve: resolver })).address).toBe("93.184.215.15");
    expect((await checkDestination("http://[2001:db8::7]/hook", { ownUrl: OWN_URL, resolve: resolver })).address).toBe("2001:db8::7");
    expect((await checkDestination("http://0x5d.184.215.14/hook", { ownUrl: OWN_URL, resolve: resolver })).address).toBe("93.184.215.14");
    expect(resolver.calls.slice(calls)).toEqual(["hooks.example.net", "dual.example.net"]);
  });
});

describe("with PARLEY_WEBHOOK_ALLOW_LOOPBACK", () => {
  beforeAll(() => configureOutboundPolicy({ allowLoopback: true, ownPort: OWN_PORT }));
  afterAll(() => configureOutboundPolicy({ allowLoopback: false, ownPort: null }));

  test("allows local destinations on other ports", async () => {
    for (const url of LOCAL_SPELLINGS(9000)) expect([url, await refusal(url)]).toEqual([url, null]);
    expect((await checkDestination("http://x.localhost.:9000/", { ownUrl: OWN_URL, resolve: resolver })).address).toBe("127.0.0.1");
  });

  test("still refuses this server itself: its URL, and local addresses at its port in every spelling", async () => {
    for (const url of [...LOCAL_SPELLINGS(OWN_PORT), "https://chat.example.com/api/v1/messages", "https://CHAT.example.com:443/", "https://chat.example.com.:443/", "https://chat.example.com./"]) {
      expect([url, refusalAtFirstSight(url, OWN_URL)]).toEqual([url, "the URL points at this server itself"]);
      expect([url, await refusal(url)]).toEqual([url, "the URL points at this server itself"]);
    }
  });
});
