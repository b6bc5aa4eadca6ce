import { afterEach, describe, expect, test } from "bun:test";
import { ProxyListError, clientAddress, parseTrustedProxies, requestOrigin, servedOverHttps, trustForwardedHeaders } from "../../src/http/clientAddress";

/**
 * The X-Forwarded-For walk and the proxy list, for the cases the end-to-end test
 * (test/proxy.test.ts) cannot make from loopback: IPv6 proxies, ports, mapped addresses.
 */

/** Bun's server as far as this module asks it: the peer of a request. */
const peer = (address: string) => ({ requestIP: () => ({ address }) });

function request(headers: Record<string, string> = {}, url = "http://chat.example.com/api/v1/x") {
  return new Request(url, { headers });
}

afterEach(() => trustForwardedHeaders({ server: null, proxies: [] }));

describe("the trusted-proxy list", () => {
  test("takes addresses and ranges of both families", () => {
    const list = parseTrustedProxies(["127.0.0.1", "10.0.0.0/8", "fd00::/8", "::1"])!;
    expect(list.check("10.200.1.1", "ipv4")).toBe(true);
    expect(list.check("11.0.0.1", "ipv4")).toBe(false);
    expect(list.check("fd12::3", "ipv6")).toBe(true);
    expect(list.check("::1", "ipv6")).toBe(true);
    expect(parseTrustedProxies([])).toBeNull();
  });

  test("refuses names, bad prefixes and junk, naming the entry", () => {
    for (const entry of ["proxy.local", "10.0.0.0/33", "fd00::/129", "10.0.0.0/8/1", "10.0.0.0/", "1.2.3", "*"]) {
      expect(() => parseTrustedProxies([entry])).toThrow(ProxyListError);
      expect(() => parseTrustedProxies([entry])).toThrow(`'${entry}'`);
    }
  });
});

describe("the client address", () => {
  test("without trusted proxies it is the peer, whatever the headers say", () => {
    expect(clientAddress(peer("127.0.0.1"), request({ "x-forwarded-for": "203.0.113.9" }))).toBe("127.0.0.1");
    expect(clientAddress(null, request())).toBe("unknown");
  });

  test("from a trusted proxy, the rightmost address that is not a proxy", () => {
    trustForwardedHeaders({ server: null, proxies: ["127.0.0.1", "10.0.0.0/8", "fd00::/8"] });
    const from = (proxy: string, xff: string) => clientAddress(peer(proxy), request({ "x-forwarded-for": xff }));
    expect(from("127.0.0.1", "203.0.113.9")).toBe("203.0.113.9");
    expect(from("127.0.0.1", "1.1.1.1, 203.0.113.9, 10.0.0.5")).toBe("203.0.113.9");
    expect(from("::ffff:127.0.0.1", "203.0.113.9")).toBe("203.0.113.9");
    expect(from("fd00::2", "2001:db8::7")).toBe("2001:db8::7");
    // Ports, and IPv6 in brackets, as some proxies write them.
    expect(from("127.0.0.1", "203.0.113.9:5123")).toBe("203.0.113.9");
    expect(from("127.0.0.1", "[2001:db8::7]:443")).toBe("2001:db8::7");
    // Every hop a proxy: the leftmost is as far as can be told.
    expect(from("127.0.0.1", "10.0.0.9, 10.0.0.5")).toBe("10.0.0.9");
    // Junk ends the walk at the last hop that could be believed.
    expect(from("127.0.0.1", "203.0.113.9, unknown")).toBe("127.0.0.1");
    expect(from("127.0.0.1", "unknown, 10.0.0.5")).toBe("10.0.0.5");
    expect(from("127.0.0.1", "")).toBe("127.0.0.1");
    expect(clientAddress(peer("127.0.0.1"), request())).toBe("127.0.0.1");
  });

  test("from a peer that is not listed, the peer", () => {
    trustForwardedHeaders({ server: null, proxies: ["10.0.0.0/8"] });
    expect(clientAddress(peer("192.0.2.1"), request({ "x-forwarded-for": "203.0.113.9" }))).toBe("192.0.2.1");
  });
});

describe("the scheme", () => {
  test("our own TLS is HTTPS whatever the headers say", () => {
    expect(servedOverHttps(request({ "x-forwarded-proto": "http" }, "https://chat.example.com/"))).toBe(true);
  });

  test("X-Forwarded-Proto counts from a trusted proxy only", () => {
    const forwarded = request({ "x-forwarded-proto": "https" });
    expect(servedOverHttps(forwarded)).toBe(false);
    trustForwardedHeaders({ server: peer("127.0.0.1"), proxies: ["127.0.0.1"] });
    expect(servedOverHttps(forwarded)).toBe(true);
    expect(servedOverHttps(request({ "x-forwarded-proto": "HTTPS, http" }))).toBe(true);
    expect(servedOverHttps(request({ "x-forwarded-proto": "http" }))).toBe(false);
    expect(requestOrigin(forwarded)).toBe("https://chat.example.com");
    expect(requestOrigin(request())).toBe("http://chat.example.com");
    trustForwardedHeaders({ server: peer("192.0.2.1"), proxies: ["127.0.0.1"] });
    expect(servedOverHttps(forwarded)).toBe(false);
  });
});
