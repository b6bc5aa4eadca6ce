import { Elysia, t } from "elysia";
import { conventions } from "../src/http/conventions";
const app = new Elysia().use(conventions)
.post("/x", ({ body }) => ({ result: "success", msg: "", body }), {
  body: t.Object({
    ids: t.Optional(t.ArrayString(t.Integer(), { maxItems: 3 })),
    obj: t.Optional(t.ObjectString({ a: t.Integer() })),
    flag: t.Optional(t.BooleanString()),
    n: t.Optional(t.Numeric({ minimum: 0 })),
    s: t.Optional(t.String({ maxLength: 5 })),
    e: t.Optional(t.Union([t.Literal("a"), t.Literal("b")])),
    a: t.Optional(t.ArrayString(t.Numeric({ minimum: 0 }))),
    o: t.Optional(t.ObjectString({ k: t.Numeric({ minimum: 0 }) })),
    l: t.Optional(t.ArrayString(t.Object({ k: t.Integer() }))),
    u: t.Optional(t.Union([t.Integer(), t.ObjectString({ direct_members: t.Array(t.Integer()) })])),
    req: t.String(),
  }),
});
for (const b of ["ids=[1, 2]", "ids=[1,", "ids=[\"a\"]", "ids=5", "ids={}", "ids=[1,2,3,4]", "obj={\"a\":1}", "obj={\"a\":\"x\"}", "obj=[1]", "obj={", "obj={}", "flag=true", "flag=1", "n=-1", "n=abc", "s=toolong", "e=c", "ids=null", "ids=", "ids=abc", "obj=null",
 "a=[-1]", "a=[\"-1\"]", "o={\"k\":-1}", "o={\"k\":\"-1\"}", "l=[{\"k\":\"x\"}]", "l=[{\"k\":1}]", "u=5", "u={\"direct_members\":[1]}", "u={\"direct_members\":[\"x\"]}", "u=abc", "ids=5&flag=yes", "ids=&flag=yes"]) {
  const body = b + (b.includes("req") ? "" : "&req=1");
  const r = await app.handle(new Request("http://localhost/x", { method: "POST", body: new URLSearchParams(body), }));
  console.log(b.padEnd(30), r.status, await r.text());
}
const r = await app.handle(new Request("http://localhost/x", { method: "POST", body: new URLSearchParams("s=1"), }));
console.log("missing", r.status, await r.text());
