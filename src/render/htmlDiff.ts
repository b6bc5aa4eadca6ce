/**
 * An HTML diff of two renderings of a message, for the edit history's content_html_diff: the
 * new version's markup, with its added words wrapped in `highlight_text_inserted` spans and
 * the removed words put back where they were, wrapped in `highlight_text_deleted` spans, the
 * whole in a `<div>`, as the reference's example shows. Tags of the old version that are gone
 * are dropped (their text stays, highlighted), so the result is always well nested.
 *
 * Words are compared, not characters, by a longest-common-subsequence over the part between
 * the common beginning and end. That part is bounded: past MAX_DIFF_CELLS it is shown as
 * wholly removed and wholly added, which is still a correct (if coarse) diff.
 */

const MAX_DIFF_CELLS = 1_000_000;

type Token = string;
type Op = { kind: "same" | "added" | "removed"; token: Token };

const TOKEN = /<[^>]*>|[^<\s]+|\s+/g;

const isTag = (token: Token) => token.startsWith("<");

function tokenize(html: string): Token[] {
  return html.match(TOKEN) ?? [];
}

/** The edit script turning `before` into `after`, in the order of `after`. */
function diffTokens(before: Token[], after: Token[]): Op[] {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && before[endBefore - 1] === after[endAfter - 1]) {
    endBefore--;
    endAfter--;
  }
  const ops: Op[] = before.slice(0, start).map((token) => ({ kind: "same", token }));
  ops.push(...middle(before.slice(start, endBefore), after.slice(start, endAfter)));
  ops.push(...after.slice(endAfter).map((token): Op => ({ kind: "same", token })));
  return ops;
}

function middle(a: Token[], b: Token[]): Op[] {
  const removedAll = a.map((token): Op => ({ kind: "removed", token }));
  const addedAll = b.map((token): Op => ({ kind: "added", token }));
  if (a.length === 0 || b.length === 0 || (a.length + 1) * (b.length + 1) > MAX_DIFF_CELLS) return [...removedAll, ...addedAll];
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === b[j] ? lcs[(i + 1) * width + j + 1] + 1 : Math.max(lcs[(i + 1) * width + j], lcs[i * width + j + 1]);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      ops.push({ kind: "same", token: a[i] });
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j] >= lcs[i * width + j + 1]) ops.push({ kind: "removed", token: a[i++] });
    else ops.push({ kind: "added", token: b[j++] });
  }
  while (i < a.length) ops.push({ kind: "removed", token: a[i++] });
  while (j < b.length) ops.push({ kind: "added", token: b[j++] });
  return ops;
}

export function htmlDiff(before: string, after: string): string {
  let out = "";
  // A run of added or removed text, wrapped in one span when it ends.
  let run: { kind: "added" | "removed"; text: string } | null = null;
  const flush = () => {
    if (run) {
      // Spaces around the changed words stay outside the span (a removed run keeps only those before it).
      const core = run.text.trim();
      const before = run.text.slice(0, run.text.length - run.text.trimStart().length);
      const after = run.kind === "added" ? run.text.slice(run.text.trimEnd().length) : "";
      out += core === "" ? (run.kind === "added" ? run.text : "") : `${before}<span class="highlight_text_${run.kind === "added" ? "inserted" : "deleted"}">${core}</span>${after}`;
    }
    run = null;
  };
  for (const op of diffTokens(tokenize(before), tokenize(after))) {
    if (op.kind === "same") {
      flush();
      out += op.token;
    } else if (isTag(op.token)) {
      // New markup is kept; markup that is gone is dropped, its text staying highlighted.
      if (op.kind === "added") {
        flush();
        out += op.token;
      }
    } else {
      if (run && run.kind !== op.kind) flush();
      if (!run) run = { kind: op.kind, text: "" };
      run.text += op.token;
    }
  }
  flush();
  return `<div>${out}</div>`;
}
