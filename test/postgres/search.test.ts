import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL as BunSql } from "bun";
import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Dialect, useDialect } from "../../src/db/dialect";
import { ftsAnyExpression, ftsExpression, type IdRange, matchesSql, type SearchQuery } from "../../src/db/messageSearch";
import { applyMigrations } from "../../src/db/migrate";
import { useTablesOf } from "../../src/db/tables";
import { highlightHtml, highlightTopic, parseSearch } from "../../src/messages/search";
import { POSTGRES_AVAILABLE, POSTGRES_UNAVAILABLE, startPostgres, type ThrowawayPostgres } from "../helpers/postgres";

/**
 * Full-text search on both databases: SQLite's FTS5 index (migrations/0001, 0002) and
 * PostgreSQL's GIN index (migrations/postgres/0002_messages_search.sql), each made by its
 * dialect's real migrations, hold the same messages; every search, built by db/messageSearch.ts
 * as each dialect builds it, must find the same messages there, and so highlight them alike
 * (match_content and match_subject come from messages/search.ts). Then parley_search_text, which
 * cuts and folds text for PostgreSQL's index, against FTS5's tokenizer for every code point.
 */

if (!POSTGRES_AVAILABLE) console.warn(`search.test.ts (postgres): skipped, ${POSTGRES_UNAVAILABLE}`);

const POSTGRES_MIGRATIONS = join(import.meta.dir, "..", "..", "migrations", "postgres");
const SQLITE_FTS_MIGRATION = join(import.meta.dir, "..", "..", "migrations", "0001_messages_fts.sql");
const BREAKPOINT = "--> statement-breakpoint";

const CHANNEL = 1;
const OTHER_CHANNEL = 2;
const DIRECT = 3;

interface Message {
  id: number;
  recipient: number;
  topic: string;
  content: string;
  /** What the Markdown renderer would make of it (highlighting works on this). */
  html: string;
}

const DECOMPOSED = "cafe\u0301 ole\u0301 \u03b1\u0301\u03bb\u03c6\u03b1 \u0438\u0306\u043e\u0434"; // café olé ά(decomposed)λφα й(decomposed)од

const MESSAGES: Message[] = [
  { id: 1, recipient: CHANNEL, topic: "Release plans", content: "We deployed the **new** build to production", html: "<p>We deployed the <strong>new</strong> build to production</p>" },
  {
    id: 2,
    recipient: CHANNEL,
    topic: "links",
    content: "see https://example.com/deploy?ref=chat for details",
    html: '<p>see <a href="https://example.com/deploy?ref=chat">https://example.com/deploy?ref=chat</a> for details</p>',
  },
  { id: 3, recipient: CHANNEL, topic: "Deploy checklist", content: "nothing else here", html: "<p>nothing else here</p>" },
  { id: 4, recipient: CHANNEL, topic: "misc", content: "fish & chips, amp up", html: "<p>fish &amp; chips, amp up</p>" },
  { id: 5, recipient: CHANNEL, topic: "misc", content: "Meet at the Café — naïve Ångström façade, İstanbul", html: "<p>Meet at the Café — naïve Ångström façade, İstanbul</p>" },
  {
    id: 6,
    recipient: CHANNEL,
    topic: "misc",
    content: "the coffee machine is broken; machine coffee is not",
    html: "<p>the coffee machine is broken; machine coffee is not</p>",
  },
  // The phrase "coffee machine" spans the topic's end and the content's start: not a phrase.
  { id: 7, recipient: CHANNEL, topic: "coffee", content: "machine room, first floor", html: "<p>machine room, first floor</p>" },
  { id: 8, recipient: OTHER_CHANNEL, topic: "Ελληνικά", content: "ΟΔΟΣ και οδός· Ωμέγα", html: "<p>ΟΔΟΣ και οδός· Ωμέγα</p>" },
  { id: 9, recipient: OTHER_CHANNEL, topic: "Русский", content: "Привет, мир! Ёлка и йод.", html: "<p>Привет, мир! Ёлка и йод.</p>" },
  { id: 10, recipient: OTHER_CHANNEL, topic: "日本語", content: "東京で会議、明日は大阪。", html: "<p>東京で会議、明日は大阪。</p>" },
  {
    id: 11,
    recipient: DIRECT,
    topic: "",
    content: "private deploy notes: CO₂ and m² in file_name.txt, mail user@example.com, v1.2.3 or 3.14",
    html: '<p>private deploy notes: CO₂ and m² in file_name.txt, mail <a href="mailto:user@example.com">user@example.com</a>, v1.2.3 or 3.14</p>',
  },
  // 🎉 was in Unicode 6.1 (a symbol: a separator to unicode61); 🤌 came later (a word to it).
  { id: 12, recipient: CHANNEL, topic: "emoji 🎉", content: "party 🎉🎉 time 🤌 ok", html: "<p>party 🎉🎉 time 🤌 ok</p>" },
  { id: 13, recipient: CHANNEL, topic: "decomposed", content: DECOMPOSED, html: `<p>${DECOMPOSED}</p>` },
  { id: 14, recipient: OTHER_CHANNEL, topic: "Notes de réunion", content: "Ordre du jour: budget, dépenses", html: "<p>Ordre du jour: budget, dépenses</p>" },
  { id: 15, recipient: CHANNEL, topic: "long", content: `${"x".repeat(600)} tail`, html: `<p>${"x".repeat(600)} tail</p>` },
  // New Tai Lue: its vowel sign ᦰ is a letter to Unicode today, a separator to unicode61.
  { id: 16, recipient: CHANNEL, topic: "tai lue", content: "ᦀᦰᦁ and ᦀ then ᦁ", html: "<p>ᦀᦰᦁ and ᦀ then ᦁ</p>" },
  { id: 17, recipient: DIRECT, topic: "", content: "deployment r1 scope:r1 ǅemal ΣΟΦΟΣ", html: "<p>deployment r1 scope:r1 ǅemal ΣΟΦΟΣ</p>" },
  { id: 18, recipient: OTHER_CHANNEL, topic: "DEPLOY", content: "Deployments, deployed, deploying: DEPLOY!", html: "<p>Deployments, deployed, deploying: DEPLOY!</p>" },
];

const ALL: IdRange = { from: 1, to: 1_000 };

describe.skipIf(!POSTGRES_AVAILABLE)("search finds the same messages in SQLite (FTS5) and PostgreSQL (GIN), highlighted alike", () => {
  let postgres: ThrowawayPostgres;
  let pg: BunSql;
  const sqlite = new Database(":memory:");

  /** Statements that change messages, run on both (the indexes follow by themselves, but FTS5's inserts: see insertMessages). */
  async function runOnBoth(statement: string, params: unknown[] = []) {
    sqlite.query(statement.replace(/\$\d+/g, "?")).run(...(params as never[]));
    await pg.unsafe(statement, params as never[]);
  }

  async function insertMessages(list: Message[]) {
    for (const message of list) {
      await runOnBoth("INSERT INTO messages (id, recipient_id, sender_id, topic, topic_key, content, rendered_content, date_sent) VALUES ($1, $2, 1, $3, $4, $5, $6, 1700000000)", [
        message.id,
        message.recipient,
        message.topic,
        message.topic.toLowerCase(),
        message.content,
        message.html,
      ]);
    }
    // What db/searchIndex.ts runs before each commit on SQLite (PostgreSQL's index needs nothing).
    const ids = list.map((message) => message.id);
    sqlite.run("INSERT INTO messages_fts (rowid, content, topic, scope) SELECT id, content, topic, 'r' || recipient_id FROM messages WHERE id BETWEEN ? AND ?", [Math.min(...ids), Math.max(...ids)]);
  }

  beforeAll(async () => {
    postgres = await startPostgres();
    pg = new BunSql({ url: postgres.url, max: 1 });
    // As the migrators do: each migration's statements in order, in a transaction.
    for (const file of readdirSync(POSTGRES_MIGRATIONS).filter((name) => name.endsWith(".sql")).sort()) {
      const statements = readFileSync(join(POSTGRES_MIGRATIONS, file), "utf8").split(BREAKPOINT).filter((statement) => statement.trim() !== "");
      await pg.begin(async (tx) => {
        for (const statement of statements) await tx.unsafe(statement);
      });
    }
    applyMigrations(sqlite);
    await runOnBoth("INSERT INTO users (id, email, full_name, role, api_key, date_joined, settings) VALUES (1, 'iago@example.com', 'Iago', 400, 'key', 1700000000, '{}')");
    for (const id of [CHANNEL, OTHER_CHANNEL, DIRECT]) await runOnBoth("INSERT INTO recipients (id, type, dm_key) VALUES ($1, 1, $2)", [id, `k${id}`]);
    await insertMessages(MESSAGES);
  }, 60_000);

  afterAll(async () => {
    useDialect("sqlite");
    useTablesOf("sqlite");
    await pg?.close();
    await postgres?.stop();
    sqlite.close();
  });

  /** `build` run as each dialect builds it, on its database. */
  async function onBoth<Row>(build: () => SQL): Promise<Record<Dialect, Row[]>> {
    try {
      useDialect("sqlite");
      useTablesOf("sqlite");
      const lite = new SQLiteSyncDialect().sqlToQuery(build());
      const liteRows = sqlite.query(lite.sql).all(...(lite.params as never[])) as Row[];
      useDialect("postgres");
      useTablesOf("postgres");
      const post = new PgDialect().sqlToQuery(build());
      const postRows = [...(await pg.unsafe(post.sql, post.params as never[]))] as Row[];
      return { sqlite: liteRows, postgres: postRows };
    } finally {
      useDialect("sqlite");
      useTablesOf("sqlite");
    }
  }

  interface Found {
    id: number;
    topic: string;
    rendered_content: string;
  }

  /** The messages `where` finds in each database, in ID order. */
  async function found(where: () => SQL): Promise<Record<Dialect, Found[]>> {
    const rows = await onBoth<Found>(() => sql`SELECT id, topic, rendered_content FROM messages WHERE ${where()} ORDER BY id`);
    const normal = (list: Found[]) => list.map((row) => ({ ...row, id: Number(row.id) }));
    return { sqlite: normal(rows.sqlite), postgres: normal(rows.postgres) };
  }

  /**
   * The IDs a search operand finds (within one conversation, with `recipient`), the same in
   * both databases, and the highlights GET /messages would give them, the same in both.
   */
  async function search(operand: string, options: { recipient?: number; range?: IdRange } = {}) {
    const query = parseSearch([operand]);
    const rows = await found(() => matchesSql(ftsExpression(query, options.recipient), options.range ?? ALL));
    expect(rows.postgres.map((row) => row.id)).toEqual(rows.sqlite.map((row) => row.id));
    const highlights = (list: Found[]) => list.map((row) => ({ id: row.id, match_content: highlightHtml(row.rendered_content, query), match_subject: highlightTopic(row.topic, query) }));
    expect(highlights(rows.postgres)).toEqual(highlights(rows.sqlite));
    return { ids: rows.sqlite.map((row) => row.id), highlights: new Map(highlights(rows.sqlite).map((row) => [row.id, row])) };
  }

  const ids = async (operand: string, options: { recipient?: number; range?: IdRange } = {}) => (await search(operand, options)).ids;
  const HL = (word: string) => `<span class="highlight">${word}</span>`;

  test("words in the content or the topic, by prefix from three characters, whatever the case", async () => {
    expect(await ids("DEPLOY")).toEqual([1, 2, 3, 11, 17, 18]);
    expect(await ids("deployed")).toEqual([1, 18]);
    expect(await ids("dep")).toEqual([1, 2, 3, 11, 14, 17, 18]);
    // Two characters: whole words only.
    expect(await ids("de")).toEqual([14]);
    expect(await ids("du")).toEqual([14]);
    expect(await ids("mi")).toEqual([]);
  });

  test("every word must match, each in the content or the topic", async () => {
    expect(await ids("deployed production")).toEqual([1]);
    expect(await ids("deployed nowhere")).toEqual([]);
    expect(await ids("checklist nothing")).toEqual([3]);
    expect(await ids("coffee machine")).toEqual([6, 7]);
  });

  test("phrases: words in order, next to each other, within the content or within the topic", async () => {
    expect(await ids('"coffee machine"')).toEqual([6]);
    expect(await ids('"machine coffee"')).toEqual([6]);
    expect(await ids('"machine is coffee"')).toEqual([]);
    expect(await ids('"is broken"')).toEqual([6]);
    // Punctuation between words is no gap.
    expect(await ids('"broken machine"')).toEqual([6]);
    expect(await ids('"release plans" "new build"')).toEqual([1]);
    expect(await ids('"deploy checklist" nothing')).toEqual([3]);
    // A phrase's last word is whole.
    expect(await ids('"coffee mach"')).toEqual([]);
    // 🤌 is a word to unicode61 (newer than its tables), 🎉 is not.
    expect(await ids('"time ok"')).toEqual([]);
    expect(await ids('"party time"')).toEqual([12]);
  });

  test("accents, case and scripts as unicode61 folds them", async () => {
    expect(await ids("cafe")).toEqual([5, 13]);
    expect(await ids("Café")).toEqual([5, 13]);
    expect(await ids("naive angstrom facade")).toEqual([5]);
    expect(await ids("istanbul")).toEqual([5]);
    expect(await ids("ole")).toEqual([13]);
    expect(await ids("reunion depenses")).toEqual([14]);
    // Final sigma folds to σ; Greek keeps its tonos (οδός is not οδος), Cyrillic its й and ё.
    expect(await ids("οδος")).toEqual([8]);
    expect(await ids("ΣΟΦΟΣ σοφος")).toEqual([17]);
    expect(await ids("ωμεγα")).toEqual([]);
    expect(await ids("привет мир")).toEqual([9]);
    // ǅ's lower case.
    expect(await ids("ǆemal")).toEqual([17]);
    // A run of ideographs is one word: found by its beginning, from three characters.
    expect(await ids("東京")).toEqual([]);
    expect(await ids("明日は")).toEqual([10]);
    expect(await ids("明日は大阪")).toEqual([10]);
    // Subscript and superscript digits are word characters.
    expect(await ids("co₂ m²")).toEqual([11]);
    // Decomposed input: the combining accents go, whatever the letter.
    expect(await ids("αλφα")).toEqual([13]);
    expect(await ids("иод")).toEqual([13]);
  });

  test("words with accents or voicing marks on letters other than Latin: found only where the text has none", async () => {
    // messages/search.ts removes every accent from a search's words; unicode61 keeps those of
    // letters other than Latin (but removes a combining accent, as in the decomposed message 13).
    expect(await ids("йод")).toEqual([13]);
    expect(await ids("ёлка")).toEqual([]);
    expect(await ids("οδός")).toEqual([8]);
    expect(await ids("Ωμέγα")).toEqual([]);
    // The same for kana with a voicing mark: で loses it in the search's words (て), not in the index.
    expect(await ids("東京で")).toEqual([]);
  });

  test("URLs, addresses, file names and numbers are cut at their punctuation", async () => {
    expect(await ids("example")).toEqual([2, 11]);
    expect(await ids("com deploy")).toEqual([2, 11]);
    expect(await ids('"example com deploy"')).toEqual([2]);
    expect(await ids('"file name txt"')).toEqual([11]);
    expect(await ids('"user example com"')).toEqual([11]);
    expect(await ids('"v1 2 3"')).toEqual([11]);
    expect(await ids('"3 14"')).toEqual([11]);
    expect(await ids("details ref chat")).toEqual([2]);
  });

  test("a word one unicode61 cuts in two is a phrase of its parts", async () => {
    expect(await ids("ᦀᦰᦁ")).toEqual([16]);
    expect(await ids('"ᦀ ᦁ"')).toEqual([16]);
    expect(await ids('"ᦀ then"')).toEqual([16]);
    expect(await ids('"then ᦀ"')).toEqual([]);
  });

  test("long words, and what a user types that is query syntax elsewhere", async () => {
    expect(await ids("xxx")).toEqual([15]);
    expect(await ids("x".repeat(600))).toEqual([15]);
    expect(await ids(`${"x".repeat(600)} tail`)).toEqual([15]);
    expect(await ids("x".repeat(5000))).toEqual([]);
    expect(await ids("deploy*")).toEqual([1, 2, 3, 11, 17, 18]);
    expect(await ids("deploy OR nothing")).toEqual([]);
    expect(await ids("content:deployed")).toEqual([]);
    expect(await ids("NEAR(deploy build)")).toEqual([]);
    expect(await ids("AND( deployed")).toEqual([]);
    expect(await ids("'; DROP TABLE messages; --")).toEqual([]);
    expect(await ids("deployed:production")).toEqual([1]);
  });

  test("within one conversation; its key in the index is not a word", async () => {
    expect(await ids("deploy", { recipient: CHANNEL })).toEqual([1, 2, 3]);
    expect(await ids("deploy", { recipient: DIRECT })).toEqual([11, 17]);
    expect(await ids("deploy", { recipient: OTHER_CHANNEL })).toEqual([18]);
    expect(await ids("deploy", { recipient: 99 })).toEqual([]);
    expect(await ids("r1")).toEqual([17]);
    expect(await ids("r1", { recipient: CHANNEL })).toEqual([]);
    expect(await ids("r3")).toEqual([]);
  });

  test("only within the range of IDs asked about", async () => {
    expect(await ids("deploy", { range: { from: 2, to: 12 } })).toEqual([2, 3, 11]);
    expect(await ids("deploy", { range: { from: 4, to: 11 } })).toEqual([]);
  });

  test("excluded searches: none of them", async () => {
    const queries = ["deploy", '"coffee machine"', "ωμεγα"].map((operand) => parseSearch([operand]));
    const rows = await found(() => sql`NOT (${matchesSql(ftsAnyExpression(queries), ALL)})`);
    expect(rows.sqlite.map((row) => row.id)).toEqual([4, 5, 7, 8, 9, 10, 12, 13, 14, 15, 16]);
    expect(rows.postgres).toEqual(rows.sqlite);
    const any = await found(() => matchesSql(ftsAnyExpression(queries), { from: 1, to: 7 }));
    expect(any.sqlite.map((row) => row.id)).toEqual([1, 2, 3, 6]);
    expect(any.postgres).toEqual(any.sqlite);
  });

  test("highlights: the same matches wrapped, never inside tags, character references whole", async () => {
    const deploy = await search("deploy", { recipient: CHANNEL });
    expect(deploy.highlights.get(1)).toEqual({ id: 1, match_content: `<p>We ${HL("deployed")} the <strong>new</strong> build to production</p>`, match_subject: "Release plans" });
    expect(deploy.highlights.get(2)!.match_content).toBe(
      `<p>see <a href="https://example.com/deploy?ref=chat">https://example.com/${HL("deploy")}?ref=chat</a> for details</p>`,
    );
    expect(deploy.highlights.get(3)).toEqual({ id: 3, match_content: "<p>nothing else here</p>", match_subject: `${HL("Deploy")} checklist` });
    expect((await search("amp")).highlights.get(4)!.match_content).toBe(`<p>fish &amp; chips, ${HL("amp")} up</p>`);
    expect((await search("cafe naive")).highlights.get(5)!.match_content).toBe(`<p>Meet at the ${HL("Café")} — ${HL("naïve")} Ångström façade, İstanbul</p>`);
    expect((await search('"coffee machine"')).highlights.get(6)!.match_content).toBe(
      `<p>the ${HL("coffee")} ${HL("machine")} is broken; ${HL("machine")} ${HL("coffee")} is not</p>`,
    );
    expect((await search("привет")).highlights.get(9)).toEqual({ id: 9, match_content: `<p>${HL("Привет")}, мир! Ёлка и йод.</p>`, match_subject: "Русский" });
    expect((await search("DEPLOY", { recipient: OTHER_CHANNEL })).highlights.get(18)).toEqual({
      id: 18,
      match_content: `<p>${HL("Deployments")}, ${HL("deployed")}, ${HL("deploying")}: ${HL("DEPLOY")}!</p>`,
      match_subject: HL("DEPLOY"),
    });
  });

  test("edits, moves and deletions reach both indexes", async () => {
    await insertMessages([{ id: 50, recipient: CHANNEL, topic: "later", content: "a rocket launch", html: "<p>a rocket launch</p>" }]);
    expect(await ids("rocket")).toEqual([50]);
    // SQLite's index follows through the triggers of migration 0001; PostgreSQL's is an expression.
    await runOnBoth("UPDATE messages SET content = 'a balloon launch', rendered_content = '<p>a balloon launch</p>' WHERE id = 50");
    expect(await ids("rocket")).toEqual([]);
    expect(await ids("balloon launch")).toEqual([50]);
    await runOnBoth("UPDATE messages SET recipient_id = $1, topic = 'moved' WHERE id = 50", [DIRECT]);
    expect(await ids("balloon", { recipient: CHANNEL })).toEqual([]);
    expect(await ids("balloon", { recipient: DIRECT })).toEqual([50]);
    expect(await ids("moved")).toEqual([50]);
    expect(await ids("later")).toEqual([]);
    await runOnBoth("DELETE FROM messages WHERE id = 50");
    expect(await ids("balloon")).toEqual([]);
  });

  test("PostgreSQL answers from its GIN index (the query's expression is the index's), phrases checked last", async () => {
    const query: SearchQuery = parseSearch(['deploy "coffee machine"']);
    const everything = { from: 1, to: 1_000_000 };
    const built = (where: () => SQL) => {
      useDialect("postgres");
      useTablesOf("postgres");
      try {
        return new PgDialect().sqlToQuery(sql`SELECT id FROM messages WHERE ${where()}`);
      } finally {
        useDialect("sqlite");
        useTablesOf("sqlite");
      }
    };
    const statements = [built(() => matchesSql(ftsExpression(query, CHANNEL), everything)), built(() => sql`NOT (${matchesSql(ftsAnyExpression([query]), everything)})`)];
    const plans: string[] = [];
    class RollBack extends Error {}
    // With enough messages for an index to be worth it, in a transaction undone after.
    await pg
      .begin(async (tx) => {
        await tx.unsafe(
          "INSERT INTO messages (id, recipient_id, sender_id, topic, content, rendered_content, date_sent) SELECT 1000 + g, 1 + g % 3, 1, 'filler', 'filler text number ' || g, '', 0 FROM generate_series(1, 20000) AS g",
        );
        await tx.unsafe("ANALYZE messages");
        for (const statement of statements) {
          const rows = await tx.unsafe(`EXPLAIN ${statement.sql}`, statement.params as never[]);
          plans.push(rows.map((row: Record<string, string>) => row["QUERY PLAN"]).join("\n"));
        }
        throw new RollBack();
      })
      .catch((error) => {
        if (!(error instanceof RollBack)) throw error;
      });
    for (const plan of plans) {
      expect(plan).toContain("Bitmap Index Scan on messages_search");
      // The index is asked for the words; the phrase is checked on the rows it found.
      expect(plan).toMatch(/Index Cond: \(parley_search_keys\(topic, content, recipient_id\) @@ /);
      expect(plan).toMatch(/Filter: [^\n]*parley_search_has_phrase/);
      expect(plan).not.toMatch(/Filter: [^\n]*parley_search_keys/);
    }
  });

  test("parley_search_text cuts and folds every code point as FTS5's unicode61 does, but for the differences its migration lists", async () => {
    // The tokenizer FTS5's index uses, as its migration declares it.
    const tokenizer = /tokenize='([^']+)'/.exec(readFileSync(SQLITE_FTS_MIGRATION, "utf8"))![1];
    expect(tokenizer).toBe("unicode61 remove_diacritics 2");
    const probe = new Database(":memory:");
    probe.run(`CREATE VIRTUAL TABLE probe USING fts5(x, tokenize='${tokenizer}')`);
    probe.run("CREATE VIRTUAL TABLE probe_words USING fts5vocab(probe, 'instance')");
    // Each code point between two letters: a word character stays inside the word (folded),
    // a separator cuts it in two, a diacritic FTS5 folds away disappears.
    const codePoints: number[] = [];
    for (let c = 0x20; c <= 0x10ffff; c++) if (c < 0xd800 || c > 0xdfff) codePoints.push(c);
    const insert = probe.prepare("INSERT INTO probe (rowid, x) VALUES (?, ?)");
    probe.transaction(() => {
      for (const c of codePoints) insert.run(c, `q${String.fromCodePoint(c)}z`);
    })();
    const fts5 = new Map<number, string[]>();
    for (const row of probe.query("SELECT doc, term FROM probe_words ORDER BY doc, offset").iterate() as Iterable<{ doc: number; term: string }>) {
      const words = fts5.get(row.doc);
      if (words) words.push(row.term);
      else fts5.set(row.doc, [row.term]);
    }
    probe.close();

    // PostgreSQL's, a block of code points at a time (words never hold a line break).
    const differences: string[] = [];
    for (let start = 0; start <= 0x10ffff; start += 0x10000) {
      const [row] = await pg.unsafe(
        `SELECT string_agg(parley_search_text('q' || chr(c) || 'z'), E'\\n' ORDER BY c) AS words,
                string_agg(lower(chr(c) COLLATE "und-x-icu"), E'\\n' ORDER BY c) AS lowered,
                string_agg(CASE WHEN chr(c) IS NFC NORMALIZED THEN 't' ELSE 'f' END, '' ORDER BY c) AS nfc
         FROM generate_series($1::int, $2::int) AS c WHERE c >= 32 AND c NOT BETWEEN 55296 AND 57343`,
        [start, start + 0xffff],
      );
      const words = (row.words as string).split("\n");
      const lowered = (row.lowered as string).split("\n");
      const nfc = row.nfc as string;
      const inBlock = codePoints.filter((c) => c >= start && c <= start + 0xffff);
      expect(words.length).toBe(inBlock.length);
      inBlock.forEach((c, i) => {
        const expected = (fts5.get(c) ?? []).join(" ");
        if (words[i] === expected) return;
        const character = String.fromCodePoint(c);
        // The differences the migration lists: text not in NFC is compared as its NFC; case
        // pairs newer than unicode61's Unicode 6.1 tables; Ǡ and ǡ, which FTS5 keeps.
        if (nfc[i] === "f") return;
        if (expected === `q${character}z` && words[i] === `q${lowered[i]}z` && lowered[i] !== character) return;
        if (c === 0x1e0 || c === 0x1e1) return;
        differences.push(`U+${c.toString(16).toUpperCase().padStart(4, "0")} ${JSON.stringify(character)}: FTS5 ${JSON.stringify(expected)}, PostgreSQL ${JSON.stringify(words[i])}`);
      });
    }
    expect(differences).toEqual([]);
  }, 120_000);

  test("text as a whole: separators in runs, decomposed letters, final sigma", async () => {
    const texts = [
      "Héllo,   WORLD!! https://example.com/Deploy?x=1&y=2 — “quoted” ‘text’ don’t",
      DECOMPOSED,
      "ΟΔΟΣ ΣΟΦΟΣ Σ όσος",
      "İSTANBUL ıi ǅ ǈ ß ẞ ﬁ ﬀ Ⅻ ½ ① ٣ ４２",
      "e\u0301\u0301x \u0301start a\u0305b n\u0303o",
      "tab\tnew\nline\rcr\u00a0nbsp\u2009thin\u3000ideographic",
      "",
      "   ",
    ];
    const probe = new Database(":memory:");
    probe.run("CREATE VIRTUAL TABLE probe USING fts5(x, tokenize='unicode61 remove_diacritics 2')");
    probe.run("CREATE VIRTUAL TABLE probe_words USING fts5vocab(probe, 'instance')");
    texts.forEach((text, i) => probe.run("INSERT INTO probe (rowid, x) VALUES (?, ?)", [i + 1, text]));
    const expected = texts.map((_, i) =>
      (probe.query("SELECT term FROM probe_words WHERE doc = ? ORDER BY offset").all(i + 1) as Array<{ term: string }>).map((row) => row.term).join(" "),
    );
    probe.close();
    const actual = await Promise.all(texts.map(async (text) => (await pg.unsafe("SELECT parley_search_text($1) AS words", [text]))[0].words as string));
    expect(actual).toEqual(expected);
  });
});
