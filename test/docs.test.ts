import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";

/**
 * The README and docs/ are read in a clone, on GitHub or in an editor: every relative link must
 * reach a file of the repository (a clone has no ../shared and no build output), and every
 * #anchor a heading of its target, spelled as GitHub makes heading ids. Pure file reading.
 */

const ROOT = resolve(import.meta.dir, "..");

interface LinkProblem {
  file: string;
  target: string;
  problem: string;
}

/** Fenced code blocks blanked out: their #s are not headings. */
function withoutFences(markdown: string): string {
  const lines = markdown.split("\n");
  let fence: string | null = null;
  const kept = lines.map((line) => {
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === null && opening) {
      fence = opening[1]!;
      return "";
    }
    if (fence !== null) {
      if (new RegExp(`^ {0,3}${fence[0] === "`" ? "`" : "~"}{${fence.length},}\\s*$`).test(line)) fence = null;
      return "";
    }
    return line;
  });
  return kept.join("\n");
}

/** Code blocks and inline code spans blanked out: their brackets are not links. */
const withoutCode = (markdown: string) => withoutFences(markdown).replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, (span) => " ".repeat(span.length));

/** GitHub's heading id: lowercase, punctuation dropped (not - or _), each space a hyphen. */
function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a markdown text offers: its headings' ids (repeats get -1, -2 ...) and HTML ids. */
function anchorsOf(markdown: string): Set<string> {
  const text = withoutFences(markdown);
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of text.split("\n")) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const match of text.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  return anchors;
}

/** The targets of inline links and images, `[text](target "title")`, and of reference definitions. */
function linkTargets(markdown: string): string[] {
  const text = withoutCode(markdown);
  const targets: string[] = [];
  for (const match of text.matchAll(/!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g)) {
    targets.push(match[1]!.replace(/^<|>$/g, ""));
  }
  for (const match of text.matchAll(/^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/gm)) targets.push(match[1]!.replace(/^<|>$/g, ""));
  return targets;
}

/** Top-level folders .gitignore leaves out of a clone (dist/, node_modules/ ...). */
function ignoredFolders(root: string): string[] {
  const gitignore = join(root, ".gitignore");
  if (!existsSync(gitignore)) return [];
  return readFileSync(gitignore, "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.endsWith("/") && !line.startsWith("#") && !/[*?[!]/.test(line))
    .map((line) => line.replace(/^\//, ""));
}

/** What is wrong with each link of `file` (a path inside `root`); `read` gives a file's text. */
function checkLinks(root: string, file: string, read: (path: string) => string | null): LinkProblem[] {
  const source = read(file);
  if (source === null) return [{ file, target: "", problem: "file not found" }];
  const ignored = ignoredFolders(root);
  const problems: LinkProblem[] = [];
  for (const target of linkTargets(source)) {
    const fail = (problem: string) => problems.push({ file: relative(root, file), target, problem });
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) && !/^file:/i.test(target)) continue; // https:, mailto:
    if (target.includes("/work/shared") || target.startsWith("//") || target.startsWith("/") || /^file:/i.test(target)) {
      fail("points outside the repository (use a path relative to this file)");
      continue;
    }
    const hash = target.indexOf("#");
    const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
    const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
    const path = pathPart === "" ? file : resolve(dirname(file), pathPart);
    const inRepo = relative(root, path);
    if (inRepo.startsWith("..") || isAbsolute(inRepo)) {
      fail("leaves the repository");
      continue;
    }
    if (ignored.some((folder) => `${inRepo}/`.startsWith(folder))) {
      fail(`is in ${ignored.find((folder) => `${inRepo}/`.startsWith(folder))}, which a clone does not have`);
      continue;
    }
    if (!existsSync(path)) {
      fail("no such file");
      continue;
    }
    if (anchor === null) continue;
    if (!path.endsWith(".md")) {
      fail("an anchor into a file that is not markdown");
      continue;
    }
    const text = read(path);
    if (text === null || !anchorsOf(text).has(anchor)) fail(`no heading with the id '${anchor}' in ${relative(root, path)}`);
  }
  return problems;
}

const readOrNull = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : null);

const documents = [join(ROOT, "README.md"), ...readdirSync(join(ROOT, "docs")).filter((name) => name.endsWith(".md")).map((name) => join(ROOT, "docs", name))];

describe("the README and docs/", () => {
  test("every relative link reaches a file of the repository, and every anchor a heading", () => {
    const problems = documents.flatMap((file) => checkLinks(ROOT, file, readOrNull));
    expect(problems).toEqual([]);
  });

  test("the links checked are the links there are (the README links to docs/ and to anchors)", () => {
    const readme = linkTargets(readFileSync(join(ROOT, "README.md"), "utf8"));
    expect(readme.filter((target) => target.startsWith("docs/")).length).toBeGreaterThanOrEqual(10);
    expect(readme.filter((target) => target.startsWith("#")).length).toBeGreaterThanOrEqual(3);
  });

  test("the README's quick start still gives the two commands, and npm test as the test command CI runs", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const block = /## Quick start\n\n```sh\n([\s\S]*?)```/.exec(readme);
    expect(block?.[1]).toBe("npm install && npm start\nnpm test\n");
  });
});

describe("the link check", () => {
  const fakeRoot = ROOT;
  const readme = join(fakeRoot, "README.md");
  const check = (markdown: string, others: Record<string, string> = {}) =>
    checkLinks(fakeRoot, readme, (path) => (path === readme ? markdown : (others[path] ?? readOrNull(path)))).map((problem) => `${problem.target}: ${problem.problem}`);

  test("refuses a missing file, a missing anchor, and links out of the repository", () => {
    expect(check("[a](docs/NOPE.md) [b](#nowhere) [c](../shared/ARCHITECTURE.md) [d](/work/shared/x.md) [e](docs/API.md#no-such-heading) [f](dist/parley)")).toEqual([
      "docs/NOPE.md: no such file",
      "#nowhere: no heading with the id 'nowhere' in README.md",
      "../shared/ARCHITECTURE.md: leaves the repository",
      "/work/shared/x.md: points outside the repository (use a path relative to this file)",
      "docs/API.md#no-such-heading: no heading with the id 'no-such-heading' in docs/API.md",
      "dist/parley: is in dist/, which a clone does not have",
    ]);
  });

  test("accepts files, images, anchors as GitHub spells them, and web links; ignores code", () => {
    const markdown = [
      "# E-mail (SMTP)",
      "## Behind a reverse proxy, with `TLS`",
      "## Notes",
      "## Notes",
      "[a](docs/API.md) ![b](docs/screenshots/chat.png) [c](#e-mail-smtp) [d](#behind-a-reverse-proxy-with-tls)",
      "[e](#notes-1) [f](https://example.com/#x) [g](docs/API.md#conventions)",
      "[h]: LICENSE",
      "`[not a link](nowhere.md)`",
      "```sh",
      "# not a heading",
      "[not a link](nowhere.md)",
      "```",
    ].join("\n");
    expect(check(markdown)).toEqual([]);
    expect(check("[x](#not-a-heading)\n```\n# not a heading\n```\n[y]: docs/NOPE.md")).toEqual([
      "#not-a-heading: no heading with the id 'not-a-heading' in README.md",
      "docs/NOPE.md: no such file",
    ]);
  });
});
