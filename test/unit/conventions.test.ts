import { afterAll, afterEach, beforeAll, describe, expect, spyOn, test } from "bun:test";
import { Elysia, t } from "elysia";
import { conventions } from "../../src/http/conventions";
import { success } from "../../src/http/errors";
import { log } from "../../src/log";

/**
 * The conventions plugin on a small app of its own: the parameter shapes no endpoint takes yet
 * (JSON lists and objects, group-setting unions) and failures no endpoint can be made to have.
 */

const Lists = t.Object({
  ids: t.Optional(t.ArrayString(t.Integer(), { maxItems: 3 })),
  counts: t.Optional(t.ArrayString(t.Numeric({ minimum: 0 }))),
  flags: t.Optional(t.ObjectString({ pinned: t.BooleanString() })),
  setting: t.Optional(t.Union([t.Integer(), t.ObjectString({ direct_members: t.Array(t.Integer()), direct_subgroups: t.Array(t.Integer()) })])),
  notify: t.Optional(t.BooleanString()),
  level: t.Optional(t.Numeric({ minimum: 0 })),
  op: t.Optional(t.Union([t.Literal("add"), t.Literal("remove")])),
  content: t.Optional(t.String({ maxLength: 10 })),
});

const app = new Elysia()
  .use(conventions)
  .post("/lists", ({ body }) => success({ got: body }), { body: Lists })
  .delete("/lists", ({ body }) => success({ got: body }), { body: Lists })
  .get("/fails", (): Record<string, unknown> => {
    throw new Error("secret detail from /srv/parley/src/x.ts:12");
  }, { query: t.Object({}) })
  .get("/fails-strangely", (): Record<string, unknown> => {
    // An error object that breaks whoever inspects it must not break the error handler.
    throw Object.defineProperty(new Error("x"), "stack", { get: () => { throw new Error("stack getter failed"); } });
  }, { query: t.Object({}) });

// Keep the request log lines out of the test output.
let quietRequestLog: ReturnType<typeof spyOn>;
beforeAll(() => {
  quietRequestLog = spyOn(log, "info").mockImplementation(() => {});
});
afterAll(async () => {
  // Elysia runs afterResponse hooks (the request log) on a later tick: let them run muted.
  await Bun.sleep(10);
  quietRequestLog.mockRestore();
});

afterEach(() => {
  (log.error as unknown as { mockRestore?: () => void }).mockRestore?.();
});

async function call(method: string, path: string, body?: BodyInit) {
  const response = await app.handle(new Request(`http://localhost${path}`, { method, body }));
  expect(response.headers.get("content-type")).toStartWith("application/json");
  return { status: response.status, body: (await response.json()) as any };
}

const post = (form: string) => call("POST", "/lists", new URLSearchParams(form));

async function refusal(form: string) {
  const response = await post(form);
  expect(response.status).toBe(400);
  expect(response.body).toMatchObject({ result: "error", code: "BAD_REQUEST" });
  return response.body as { msg: string; var_name: string };
}

describe("JSON parameters", () => {
  test("a list arrives as a JSON string, with or without spaces", async () => {
    expect((await post("ids=[1,2]")).body.got).toEqual({ ids: [1, 2] });
    expect((await post("ids=[1, 2,  3]")).body.got).toEqual({ ids: [1, 2, 3] });
  });

  test("an object, and a group-setting value in either of its forms", async () => {
    expect((await post('flags={"pinned": true}')).body.got).toEqual({ flags: { pinned: true } });
    expect((await post("setting=12")).body.got).toEqual({ setting: 12 });
    expect((await post('setting={"direct_members": [1, 2], "direct_subgroups": []}')).body.got).toEqual({ setting: { direct_members: [1, 2], direct_subgroups: [] } });
  });

  test("malformed JSON is refused naming the parameter", async () => {
    for (const form of ["ids=[1,", "ids=abc", 'flags={"pinned":']) {
      const name = form.split("=")[0];
      expect(await refusal(form)).toEqual(expect.objectContaining({ var_name: name, msg: `Argument '${name}' is not valid JSON.` }));
    }
  });

  test("valid JSON of the wrong shape is refused, naming the parameter and the place inside it", async () => {
    expect(await refusal("ids={}")).toMatchObject({ var_name: "ids", msg: "'ids' must be a list" });
    expect(await refusal('ids=[1, "a"]')).toMatchObject({ var_name: "ids", msg: "'ids[1]' must be an integer" });
    expect(await refusal("ids=[1,2,3,4]")).toMatchObject({ var_name: "ids", msg: "'ids' has too many items (at most 3)" });
    expect(await refusal('counts=[1, "-1"]')).toMatchObject({ var_name: "counts", msg: "'counts[1]' must be at least 0" });
    expect(await refusal("flags=[true]")).toMatchObject({ var_name: "flags", msg: "'flags' must be an object" });
    expect(await refusal("flags={}")).toMatchObject({ var_name: "flags", msg: "'flags[pinned]' is missing" });
    expect(await refusal('setting={"direct_members": ["x"], "direct_subgroups": []}')).toMatchObject({ var_name: "setting", msg: "'setting[direct_members][0]' must be an integer" });
    expect(await refusal("setting=everyone")).toMatchObject({ var_name: "setting", msg: "'setting' must be an integer or an object" });
  });

  test("multipart values that look like JSON are decoded only where the schema asks for JSON", async () => {
    const form = new FormData();
    form.append("ids", "[4, 5]");
    form.append("content", "[1]");
    expect((await call("POST", "/lists", form)).body.got).toEqual({ ids: [4, 5], content: "[1]" });
    const object = new FormData();
    object.append("content", '{"a":1}');
    expect((await call("POST", "/lists", object)).body.got).toEqual({ content: '{"a":1}' });
  });
});

describe("scalar parameters", () => {
  test("booleans arrive as true or false, and nothing else is a boolean", async () => {
    expect((await post("notify=true")).body.got).toEqual({ notify: true });
    expect((await post("notify=false")).body.got).toEqual({ notify: false });
    for (const value of ["yes", "1", "True"]) {
      expect(await refusal(`notify=${value}`)).toMatchObject({ var_name: "notify", msg: "'notify' must be true or false" });
    }
  });

  test("numbers, choices and string lengths are checked with a message saying what was expected", async () => {
    expect(await refusal("level=abc")).toMatchObject({ var_name: "level", msg: "'level' must be a number" });
    expect(await refusal("level=-1")).toMatchObject({ var_name: "level", msg: "'level' must be at least 0" });
    expect(await refusal("op=toggle")).toMatchObject({ var_name: "op", msg: `'op' must be "add" or "remove"` });
    expect(await refusal("content=01234567890")).toMatchObject({ var_name: "content", msg: "'content' is too long (at most 10 characters)" });
  });

  test("the first bad parameter is named even when an earlier one is fine", async () => {
    expect(await refusal("ids=[1]&notify=maybe")).toMatchObject({ var_name: "notify" });
  });
});

describe("where parameters come from", () => {
  test("DELETE bodies are read like POST bodies (python-zulip-api sends them)", async () => {
    expect((await call("DELETE", "/lists", new URLSearchParams("ids=[7]"))).body.got).toEqual({ ids: [7] });
  });

  test("query-string parameters on a POST are merged, the body winning, and unknown ones reported", async () => {
    const response = await call("POST", "/lists?ids=[1]&op=add&stray=1", new URLSearchParams("ids=[2]&other=x"));
    expect(response.body.got).toEqual({ ids: [2], op: "add" });
    expect(response.body.ignored_parameters_unsupported.sort()).toEqual(["other", "stray"]);
  });
});

describe("internal errors", () => {
  test("are a JSON 500 without the message or stack, and are logged in full", async () => {
    const logged = spyOn(log, "error").mockImplementation(() => {});
    const response = await call("GET", "/fails");
    expect(response).toEqual({ status: 500, body: { result: "error", msg: "Internal server error", code: "INTERNAL_SERVER_ERROR" } });
    expect(logged).toHaveBeenCalledTimes(1);
    expect(logged.mock.calls[0][0]).toContain("secret detail");
  });

  test("stay JSON even when the error itself cannot be inspected", async () => {
    spyOn(log, "error").mockImplementation(() => {});
    const response = await call("GET", "/fails-strangely");
    expect(response).toEqual({ status: 500, body: { result: "error", msg: "Internal server error", code: "INTERNAL_SERVER_ERROR" } });
  });
});
