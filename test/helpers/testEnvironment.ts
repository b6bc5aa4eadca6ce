/**
 * Loaded before every test file (bunfig.toml's preload), in this process and so in every
 * server and command it starts, which inherit its environment.
 *
 * Passwords are hashed at argon2id's lowest cost: the suite makes and checks thousands of
 * hashes, each about 100 ms of CPU at the real cost. test/passwordHashing.test.ts checks that a
 * server without the setting hashes at the real cost.
 */
process.env.PARLEY_TEST_ONLY_WEAK_PASSWORD_HASHING ??= "1";

// The renderer's warm-up at start is about a quarter of a start's CPU (0.1 of 0.4 s), and the
// suite starts hundreds of servers; the stall test, which measures first renders too, keeps it.
process.env.PARLEY_RENDERER_WARM_UP ??= "0";

// On PostgreSQL, tests that change a server's database behind its back (editServerDatabase)
// wait for it to notice: every 100 ms rather than the default second.
process.env.PARLEY_CHANGE_CHECK_MS ??= "100";
