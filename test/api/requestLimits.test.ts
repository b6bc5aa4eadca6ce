import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { MAX_BODY_BYTES, MAX_URL_LENGTH } from "../../src/http/requestSize";
import { MAX_JSON_DEPTH } from "../../src/http/jsonText";
import { createChannel } from "../helpers/channels";
import { type Org, expectError, ok, seedOrg } from "../helpers/seed";

/**
 * Point 1 and 2 of the hostile-input work: JSON nesting and size, bodies and URLs. Every
 * refusal is quick, small, in the API's envelope, and costs the server no more memory than the
 * limit it enforces.
 */

let org: Org;
let channelId: number;

beforeAll(async () => {
  org = await seedOrg();
  channelId = await createChannel(org, org.member, { principals: [org.member.id, org.guest.id] });
});
afterAll(() => org?.server.dispose());

const deepList = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const basic = (email: string, key: string) => `Basic ${Buffer.from(`${email}:${key}`).toString("base64")}`;

/** The server's peak resident memory so far, in MB (VmHWM). */
function peakMemoryMb(): number {
  const status = readFileSync(`/proc/${org.server.pid}/status`, "utf8");
  return Number(status.match(/VmHWM:\s+(\d+) kB/)![1]) / 1024;
}

/** Sends a raw HTTP/1.1 request head, then up to `bodyBytes` of body in chunks, and reads the answer. */
function rawRequest(head: string, bodyBytes: number, chunked: boolean): Promise<{ status: number; body: string; sentBytes: number }> {
  const { hostname, port } = new URL(org.server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let answer = "";
    let sentBytes = 0;
    let done = false;
    const chunk = Buffer.alloc(64 * 1024, "a");
    const pump = () => {
      while (!done && sentBytes < bodyBytes) {
        sentBytes += chunk.length;
        const framed = chunked ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]) : chunk;
        if (!socket.write(framed)) return void socket.once("drain", pump);
      }
    };
    socket.on("connect", () => {
      socket.write(head);
      pump();
    });
    socket.on("data", (data) => {
      answer += data.toString("utf8");
      const end = answer.indexOf("\r\n\r\n");
      const length = Number(answer.match(/content-length: (\d+)/i)?.[1] ?? -1);
      if (end !== -1 && length >= 0 && answer.length >= end + 4 + length) {
        done = true;
        socket.destroy();
        resolve({ status: Number(answer.split(" ")[1]), body: answer.slice(end + 4, end + 4 + length), sentBytes });
      }
    });
    socket.on("error", (error) => (done ? undefined : reject(error)));
  });
}

describe("JSON-encoded parameters", () => {
  // The places the attack report named: each answered 400 naming the parameter, at once.
  const cases: [string, string, () => string, Record<string, string>][] = [
    ["POST", "/drafts", () => "drafts", {}],
    ["POST", "/messages/flags", () => "messages", { op: "add", flag: "starred" }],
    ["PATCH", "/realm/linkifiers", () => "ordered_linkifier_ids", {}],
    ["POST", "/register", () => "event_types", {}],
    ["POST", "/register", () => "narrow", {}],
    ["POST", "/register", () => "fetch_event_types", {}],
    ["PATCH", `/streams/{channel}`, () => "can_send_message_group", {}],
    ["POST", "/user_groups/create", () => "members", { name: "deep", description: "d" }],
    ["DELETE", "/users/me/subscriptions", () => "subscriptions", {}],
    ["POST", "/messages", () => "to", { type: "stream", topic: "t", content: "c" }],
    ["GET", "/messages", () => "narrow", { anchor: "newest", num_before: "1", num_after: "0" }],
  ];
  for (const [method, pathTemplate, name, others] of cases) {
    test(`${method} ${pathTemplate} with ${name()} nested 20,000 deep: a quick 400 naming it`, async () => {
      const path = pathTemplate.replace("{channel}", String(channelId));
      for (const person of [org.guest, org.member]) {
        const started = performance.now();
        const response = await person.api.request(method, path, { ...others, [name()]: deepList(20_000) });
        const ms = performance.now() - started;
        expectError(response, "BAD_REQUEST");
        expect(response.body.var_name).toBe(name());
        expect(response.body.msg).toBe(`'${name()}' is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`);
        expect(ms).toBeLessThan(1000);
      }
    });
  }

  test("the deepest value the bound allows is still parsed and judged on its shape", async () => {
    const response = await org.member.api.post("/drafts", { drafts: deepList(MAX_JSON_DEPTH) });
    expectError(response, "BAD_REQUEST");
    expect(response.body.msg).toBe("'drafts[0]' must be an object");
  });

  test("a JSON body nested 20,000 deep is a 400, and a refusal changes nothing", async () => {
    const before = ok(await org.member.api.get("/drafts")).drafts;
    const response = await fetch(`${org.server.url}/api/v1/drafts`, {
      method: "POST",
      headers: { authorization: basic(org.member.email, org.member.apiKey), "content-type": "application/json" },
      body: `{"drafts":${deepList(20_000)}}`,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ result: "error", code: "BAD_REQUEST", msg: `The JSON body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)` });
    expect(ok(await org.member.api.get("/drafts")).drafts).toEqual(before);
  });

  test("plain text is not JSON: a message may be 5,000 brackets deep", async () => {
    const content = deepList(5_000);
    const sent = ok(await org.member.api.post("/messages", { type: "stream", to: channelId, topic: "brackets", content }));
    expect(ok(await org.member.api.get(`/messages/${sent.id}`, { apply_markdown: false })).message.content).toBe(content);
  });
});

describe("bodies", () => {
  const head = (length: number | "chunked") =>
    `POST /api/v1/messages HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic(org.member.email, org.member.apiKey)}\r\n` +
    `Content-Type: application/x-www-form-urlencoded\r\n${length === "chunked" ? "Transfer-Encoding: chunked" : `Content-Length: ${length}`}\r\n\r\n`;

  test("a body that declares more than the limit is refused before it is sent", async () => {
    const answer = await rawRequest(head(30 * 1024 * 1024), 0, false);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ result: "error", code: "BAD_REQUEST", msg: "Request body too large (at most 4 MiB)" });
  });

  test("a chunked body is refused once it passes the limit, without being buffered", async () => {
    const peakBefore = peakMemoryMb();
    const answer = await rawRequest(head("chunked"), 30 * 1024 * 1024, true);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).msg).toBe("Request body too large (at most 4 MiB)");
    // Memory grew by about the limit at most, not by the 30 MB sent.
    expect(peakMemoryMb() - peakBefore).toBeLessThan((2 * MAX_BODY_BYTES) / 1024 / 1024 + 8);
  });

  test("a body just under the limit is read as usual", async () => {
    const padding = "p".repeat(MAX_BODY_BYTES - 1000);
    const response = await org.member.api.post("/messages", { type: "stream", to: channelId, topic: "big", content: "fits", padding });
    expect(ok(response).ignored_parameters_unsupported).toEqual(["padding"]);
  });

  test("the server still answers afterwards", async () => {
    ok(await org.member.api.get("/users/me"));
  });
});

describe("URLs", () => {
  test("a query string of 300 KiB is answered, not cut off by the HTTP layer", async () => {
    const response = await org.member.api.get("/messages", { anchor: "newest", num_before: 1, num_after: 0, padding: "x".repeat(300 * 1024) });
    expect(ok(response).ignored_parameters_unsupported).toEqual(["padding"]);
  });

  test("a URL over the limit is a JSON 414", async () => {
    const response = await fetch(`${org.server.url}/api/v1/users/me?padding=${"x".repeat(MAX_URL_LENGTH)}`, { headers: { authorization: basic(org.member.email, org.member.apiKey) } });
    expect(response.status).toBe(414);
    const body = await response.json();
    expect(body).toMatchObject({ result: "error", code: "BAD_REQUEST" });
    expect(body.msg).toContain("Request URL too long");
  });
});
