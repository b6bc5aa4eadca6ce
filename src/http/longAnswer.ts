import { Slice, workingInSlices, yieldToOthers } from "../db/slices";

/**
 * A success answer with a list that can run to megabytes (a page of rendered messages, a
 * message's every version), as JSON text made a slice at a time (db/slices.ts): one
 * JSON.stringify of fifteen megabytes held the event loop for 40 ms. Routes that answer so
 * add the ignored parameters themselves (http/conventions.ts only sees answers that are objects).
 */
export function successWithLongList(fields: Record<string, unknown>, listName: string, items: readonly unknown[]): Promise<Response> {
  return workingInSlices(() => answer(fields, listName, items));
}

async function answer(fields: Record<string, unknown>, listName: string, items: readonly unknown[]): Promise<Response> {
  const parts: string[] = [];
  let slice = new Slice();
  for (const item of items) {
    parts.push(JSON.stringify(item));
    if (slice.over) {
      await yieldToOthers();
      slice = new Slice();
    }
  }
  const head = JSON.stringify({ result: "success", msg: "", ...fields });
  const text = `${head.slice(0, -1)}${head.length > 2 ? "," : ""}${JSON.stringify(listName)}:[${parts.join(",")}]}`;
  return new Response(text, { headers: { "content-type": "application/json; charset=utf-8" } });
}
