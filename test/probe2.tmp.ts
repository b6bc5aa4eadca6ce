import { Elysia, t } from "elysia";
import { conventions } from "../src/http/conventions";
const app = new Elysia().use(conventions).post("/x", ({ body }) => ({ result: "success", msg: "", body }), {
  body: t.Object({
    ids: t.Optional(t.ArrayString(t.Integer(), { maxItems: 3 })),
    obj: t.Optional(t.ObjectString({ a: t.Integer() })),
    flag: t.Optional(t.BooleanString()),
    n: t.Optional(t.Numeric({ minimum: 0 })),
    s: t.Optional(t.String({ maxLength: 5 })),
    e: t.Optional(t.Union([t.Literal("a"), t.Literal("b")])),
  }),
}).delete("/x", ({ body }) => ({ result: "success", msg: "", body }), { body: t.Object({ ids: t.ArrayString(t.Integer()) }) })
.get("/boom", () => { throw new Error("secret"); }, { query: t.Object({}) });
const form = { "content-type": "application/x-www-form-urlencoded" };
for (const body of ["ids=[1, 2]", "ids=[1,", "ids=[\"a\"]", "ids=5", "ids={}", "ids=[1,2,3,4]", "obj={\"a\":1}", "obj={\"a\":\"x\"}", "obj=[1]", "obj={", "flag=true", "flag=false", "flag=1", "flag=yes", "n=-1", "n=abc", "s=toolong", "e=c", "ids=null", "ids=", "obj=null"]) {
  const r = await app.handle(new Request("http://localhost/x", { method: "POST", body, headers: form }));
  console.log(body, r.status, await r.text());
}
let r = await app.handle(new Request("http://localhost/x", { method: "DELETE", body: "ids=[1]", headers: form })); console.log("DELETE", r.status, await r.text());
r = await app.handle(new Request("http://localhost/boom")); console.log("boom", r.status, await r.text());
const f = new FormData(); f.append("s", "[1]"); r = await app.handle(new Request("http://localhost/x", { method: "POST", body: f })); console.log("mp", r.status, await r.text());
