/**
 * The chat's first-load budget (issue 16, WEB.md): what a browser must download before the chat
 * can draw anything, the page `/` plus the chat's script, every chunk that script imports
 * statically, and the stylesheet, all gzipped as the server sends them, stays under 150 KB.
 * Chunks reached only through `import()` are left out: they load later, when asked for.
 * The bundle is refused above the budget, so a heavy dependency is noticed when it is added.
 */

export const FIRST_LOAD_BUDGET_BYTES = 150 * 1024;

/**
 * The HTML of `/` (web/shell.ts) is made per request and is not part of the bundle; it is
 * about 0.5 KB gzipped, counted here generously. test/webBudget.test.ts measures the real page.
 */
export const SHELL_HTML_ALLOWANCE_BYTES = 1024;

/** The kinds of import that load with the importing file, before it runs. */
const STATIC_IMPORTS = new Set(["import-statement", "require-call", "import-rule"]);

export interface FirstLoadFile {
  /** Path under /static/web/, or "(page HTML)" for the shell's allowance. */
  path: string;
  gzipBytes: number;
}

export interface FirstLoad {
  files: FirstLoadFile[];
  totalBytes: number;
  budgetBytes: number;
}

const normalize = (path: string) => path.replace(/^\.\//, "");

/** The script and every output it imports statically, transitively, in load order (script first). */
export function staticClosure(metafile: Pick<Bun.BuildMetafile, "outputs">, script: string): string[] {
  const outputs = new Map(Object.entries(metafile.outputs).map(([path, output]) => [normalize(path), output]));
  const seen: string[] = [];
  const visit = (path: string) => {
    if (seen.includes(path)) return;
    const output = outputs.get(path);
    if (!output) throw new Error(`The bundle's metafile has no output '${path}'`);
    seen.push(path);
    for (const imported of output.imports) if (STATIC_IMPORTS.has(imported.kind)) visit(normalize(imported.path));
  };
  visit(normalize(script));
  return seen;
}

/** Gzip at level 9, as web/assets/store.ts serves every file. */
export const gzipSize = (body: Uint8Array<ArrayBuffer>) => Bun.gzipSync(body, { level: 9 }).length;

/** The first load of these files (their gzipped sizes), plus the page's HTML allowance. */
export function measureFirstLoad(sizes: FirstLoadFile[], budgetBytes = FIRST_LOAD_BUDGET_BYTES): FirstLoad {
  const files = [{ path: "(page HTML)", gzipBytes: SHELL_HTML_ALLOWANCE_BYTES }, ...sizes];
  return { files, totalBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0), budgetBytes };
}

export const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** "chat first load: 48.2 KB gzipped of 150 KB" */
export const describeFirstLoad = (load: FirstLoad) => `chat first load: ${kilobytes(load.totalBytes)} gzipped of ${kilobytes(load.budgetBytes).replace(".0 KB", " KB")}`;

/** Throws, naming the figure and the biggest files, when the first load is over its budget. */
export function assertWithinBudget(load: FirstLoad) {
  if (load.totalBytes <= load.budgetBytes) return;
  const biggest = [...load.files]
    .sort((a, b) => b.gzipBytes - a.gzipBytes)
    .slice(0, 5)
    .map((file) => `  ${kilobytes(file.gzipBytes).padStart(9)}  ${file.path}`)
    .join("\n");
  throw new Error(
    `The chat's first load is ${kilobytes(load.totalBytes)} gzipped, over its budget of ${kilobytes(load.budgetBytes)} ` +
      `(${kilobytes(load.totalBytes - load.budgetBytes)} too much). Load what is not needed at first with import(). Biggest files:\n${biggest}`,
  );
}
