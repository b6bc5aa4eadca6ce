-- Hand-written: full-text search on PostgreSQL, the twin of SQLite's FTS5 index (migrations/0001
-- and 0002, db/searchIndex.ts), matching what it matches. Not in the drizzle schema: a GIN
-- expression index over messages plus the functions it is made of; db/messageSearch.ts builds
-- the queries, and test/postgres/search.test.ts checks them against FTS5 on the same messages
-- (and every code point against FTS5's tokenizer).
--
-- FTS5 indexes with `unicode61 remove_diacritics 2`. PostgreSQL's own parser and dictionaries
-- cut text differently (URLs, e-mail addresses, file names and numbers like 3.14 become single
-- tokens; what is a letter, and lower case, follow the database's locale; unaccent's rules are
-- not FTS5's), so parley_search_text does what unicode61 does instead:
--  1. The combining diacritics unicode61 folds away inside a word are removed.
--  2. Every run of separators becomes one space. The separators are unicode61's (its Unicode 6.1
--     tables): everything that is not a letter, a number or private use there, so the code
--     points Unicode 6.1 had not assigned yet (newer emoji among them) are word characters.
--     Both lists of code points were read off FTS5 itself, one code point at a time.
--  3. Lower case by ICU's root locale ("und-x-icu"), whatever the database's locale (so
--     PostgreSQL must be built with ICU, as Debian's is).
--  4. Text that is not in NFC is normalized to NFC; Latin letters lose their diacritics (é → e,
--     İ → i), others keep them (й, ά), as with remove_diacritics 2.
--  5. The few letters whose case folding is not their lower case (ς µ ſ ϐ ϑ ϕ ϖ ϰ ϱ ϵ ẛ) fold.
-- The words of the text, separated by single spaces, are the result.
-- Remaining differences from FTS5 (the test lists them by code point):
--  - case pairs Unicode added after 6.1 (Cherokee small letters, Georgian Mtavruli, Osage,
--    Adlam, some Latin and Cyrillic additions) compare without case here, with case in FTS5;
--  - text not in NFC (CJK compatibility ideographs, letters excluded from composition) is
--    compared as its NFC here, code point for code point in FTS5;
--  - Ǡ and ǡ become a here; FTS5 keeps them.
-- ICU's case mapping and PostgreSQL's Unicode tables are part of the index: after an upgrade
-- that changes either (a new ICU major version), REINDEX INDEX messages_search.
CREATE FUNCTION parley_search_text(t text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1000 AS $$
DECLARE
  x text;
BEGIN
  -- 1, 2: the combining diacritics unicode61 removes inside words; then its separators.
  x := regexp_replace(t, '[\u0300-\u0304\u0306-\u030C\u030F\u0311\u031B\u0323-\u0328\u032D-\u032E\u0330-\u0331]', '', 'g');
  x := btrim(regexp_replace(x, '['
    || '\u0001-\u002F\u003A-\u0040\u005B-\u0060\u007B-\u00A9\u00AB-\u00B1\u00B4\u00B6-\u00B8\u00BB\u00BF'
    || '\u00D7\u00F7\u02C2-\u02C5\u02D2-\u02DF\u02E5-\u02EB\u02ED\u02EF-\u02FF\u0305\u030D-\u030E\u0310'
    || '\u0312-\u031A\u031C-\u0322\u0329-\u032C\u032F\u0332-\u036F\u0375\u037E\u0384-\u0385\u0387\u03F6'
    || '\u0482-\u0489\u055A-\u055F\u0589-\u058A\u058F\u0591-\u05C7\u05F3-\u05F4\u0600-\u0604'
    || '\u0606-\u061B\u061E-\u061F\u064B-\u065F\u066A-\u066D\u0670\u06D4\u06D6-\u06E4\u06E7-\u06ED'
    || '\u06FD-\u06FE\u0700-\u070D\u070F\u0711\u0730-\u074A\u07A6-\u07B0\u07EB-\u07F3\u07F6-\u07F9'
    || '\u0816-\u0819\u081B-\u0823\u0825-\u0827\u0829-\u082D\u0830-\u083E\u0859-\u085B\u085E'
    || '\u08E4-\u08FE\u0900-\u0903\u093A-\u093C\u093E-\u094F\u0951-\u0957\u0962-\u0965\u0970'
    || '\u0981-\u0983\u09BC\u09BE-\u09C4\u09C7-\u09C8\u09CB-\u09CD\u09D7\u09E2-\u09E3\u09F2-\u09F3'
    || '\u09FA-\u09FB\u0A01-\u0A03\u0A3C\u0A3E-\u0A42\u0A47-\u0A48\u0A4B-\u0A4D\u0A51\u0A70-\u0A71\u0A75'
    || '\u0A81-\u0A83\u0ABC\u0ABE-\u0AC5\u0AC7-\u0AC9\u0ACB-\u0ACD\u0AE2-\u0AE3\u0AF0-\u0AF1'
    || '\u0B01-\u0B03\u0B3C\u0B3E-\u0B44\u0B47-\u0B48\u0B4B-\u0B4D\u0B56-\u0B57\u0B62-\u0B63\u0B70\u0B82'
    || '\u0BBE-\u0BC2\u0BC6-\u0BC8\u0BCA-\u0BCD\u0BD7\u0BF3-\u0BFA\u0C01-\u0C03\u0C3E-\u0C44'
    || '\u0C46-\u0C48\u0C4A-\u0C4D\u0C55-\u0C56\u0C62-\u0C63\u0C7F\u0C82-\u0C83\u0CBC\u0CBE-\u0CC4'
    || '\u0CC6-\u0CC8\u0CCA-\u0CCD\u0CD5-\u0CD6\u0CE2-\u0CE3\u0D02-\u0D03\u0D3E-\u0D44\u0D46-\u0D48'
    || '\u0D4A-\u0D4D\u0D57\u0D62-\u0D63\u0D79\u0D82-\u0D83\u0DCA\u0DCF-\u0DD4\u0DD6\u0DD8-\u0DDF'
    || '\u0DF2-\u0DF4\u0E31\u0E34-\u0E3A\u0E3F\u0E47-\u0E4F\u0E5A-\u0E5B\u0EB1\u0EB4-\u0EB9\u0EBB-\u0EBC'
    || '\u0EC8-\u0ECD\u0F01-\u0F1F\u0F34-\u0F3F\u0F71-\u0F87\u0F8D-\u0F97\u0F99-\u0FBC\u0FBE-\u0FCC'
    || '\u0FCE-\u0FDA\u102B-\u103E\u104A-\u104F\u1056-\u1059\u105E-\u1060\u1062-\u1064\u1067-\u106D'
    || '\u1071-\u1074\u1082-\u108D\u108F\u109A-\u109F\u10FB\u135D-\u1368\u1390-\u1399\u1400\u166D-\u166E'
    || '\u1680\u169B-\u169C\u16EB-\u16ED\u1712-\u1714\u1732-\u1736\u1752-\u1753\u1772-\u1773'
    || '\u17B4-\u17D6\u17D8-\u17DB\u17DD\u1800-\u180E\u18A9\u1920-\u192B\u1930-\u193B\u1940\u1944-\u1945'
    || '\u19B0-\u19C0\u19C8-\u19C9\u19DE-\u19FF\u1A17-\u1A1B\u1A1E-\u1A1F\u1A55-\u1A5E\u1A60-\u1A7C'
    || '\u1A7F\u1AA0-\u1AA6\u1AA8-\u1AAD\u1B00-\u1B04\u1B34-\u1B44\u1B5A-\u1B7C\u1B80-\u1B82'
    || '\u1BA1-\u1BAD\u1BE6-\u1BF3\u1BFC-\u1BFF\u1C24-\u1C37\u1C3B-\u1C3F\u1C7E-\u1C7F\u1CC0-\u1CC7'
    || '\u1CD0-\u1CE8\u1CED\u1CF2-\u1CF4\u1DC0-\u1DE6\u1DFC-\u1DFF\u1FBD\u1FBF-\u1FC1\u1FCD-\u1FCF'
    || '\u1FDD-\u1FDF\u1FED-\u1FEF\u1FFD-\u1FFE\u2000-\u2064\u206A-\u206F\u207A-\u207E\u208A-\u208E'
    || '\u20A0-\u20B9\u20D0-\u20F0\u2100-\u2101\u2103-\u2106\u2108-\u2109\u2114\u2116-\u2118'
    || '\u211E-\u2123\u2125\u2127\u2129\u212E\u213A-\u213B\u2140-\u2144\u214A-\u214D\u214F\u2190-\u23F3'
    || '\u2400-\u2426\u2440-\u244A\u249C-\u24E9\u2500-\u26FF\u2701-\u2775\u2794-\u2B4C\u2B50-\u2B59'
    || '\u2CE5-\u2CEA\u2CEF-\u2CF1\u2CF9-\u2CFC\u2CFE-\u2CFF\u2D70\u2D7F\u2DE0-\u2E2E\u2E30-\u2E3B'
    || '\u2E80-\u2E99\u2E9B-\u2EF3\u2F00-\u2FD5\u2FF0-\u2FFB\u3000-\u3004\u3008-\u3020\u302A-\u3030'
    || '\u3036-\u3037\u303D-\u303F\u3099-\u309C\u30A0\u30FB\u3190-\u3191\u3196-\u319F\u31C0-\u31E3'
    || '\u3200-\u321E\u322A-\u3247\u3250\u3260-\u327F\u328A-\u32B0\u32C0-\u32FE\u3300-\u33FF'
    || '\u4DC0-\u4DFF\uA490-\uA4C6\uA4FE-\uA4FF\uA60D-\uA60F\uA66F-\uA67E\uA69F\uA6F0-\uA6F7'
    || '\uA700-\uA716\uA720-\uA721\uA789-\uA78A\uA802\uA806\uA80B\uA823-\uA82B\uA836-\uA839\uA874-\uA877'
    || '\uA880-\uA881\uA8B4-\uA8C4\uA8CE-\uA8CF\uA8E0-\uA8F1\uA8F8-\uA8FA\uA926-\uA92F\uA947-\uA953'
    || '\uA95F\uA980-\uA983\uA9B3-\uA9CD\uA9DE-\uA9DF\uAA29-\uAA36\uAA43\uAA4C-\uAA4D\uAA5C-\uAA5F'
    || '\uAA77-\uAA79\uAA7B\uAAB0\uAAB2-\uAAB4\uAAB7-\uAAB8\uAABE-\uAABF\uAAC1\uAADE-\uAADF\uAAEB-\uAAF1'
    || '\uAAF5-\uAAF6\uABE3-\uABED\uFB1E\uFB29\uFBB2-\uFBC1\uFD3E-\uFD3F\uFDFC-\uFDFD\uFE00-\uFE19'
    || '\uFE20-\uFE26\uFE30-\uFE52\uFE54-\uFE66\uFE68-\uFE6B\uFEFF\uFF01-\uFF0F\uFF1A-\uFF20'
    || '\uFF3B-\uFF40\uFF5B-\uFF65\uFFE0-\uFFE6\uFFE8-\uFFEE\uFFF9-\uFFFF\U00010100-\U00010102'
    || '\U00010137-\U0001013F\U00010179-\U00010189\U00010190-\U0001019B\U000101D0-\U000101FD\U0001039F'
    || '\U000103D0\U00010857\U0001091F\U0001093F\U00010A01-\U00010A03\U00010A05-\U00010A06'
    || '\U00010A0C-\U00010A0F\U00010A38-\U00010A3A\U00010A3F\U00010A50-\U00010A58\U00010A7F'
    || '\U00010B39-\U00010B3F\U00011000-\U00011002\U00011038-\U0001104D\U00011080-\U00011082'
    || '\U000110B0-\U000110C1\U00011100-\U00011102\U00011127-\U00011134\U00011140-\U00011143'
    || '\U00011180-\U00011182\U000111B3-\U000111C0\U000111C5-\U000111C8\U000116AB-\U000116B7'
    || '\U00012470-\U00012473\U00016F51-\U00016F7E\U00016F8F-\U00016F92\U0001D000-\U0001D0F5'
    || '\U0001D100-\U0001D126\U0001D129-\U0001D1DD\U0001D200-\U0001D245\U0001D300-\U0001D356\U0001D6C1'
    || '\U0001D6DB\U0001D6FB\U0001D715\U0001D735\U0001D74F\U0001D76F\U0001D789\U0001D7A9\U0001D7C3'
    || '\U0001EEF0-\U0001EEF1\U0001F000-\U0001F02B\U0001F030-\U0001F093\U0001F0A0-\U0001F0AE'
    || '\U0001F0B1-\U0001F0BE\U0001F0C1-\U0001F0CF\U0001F0D1-\U0001F0DF\U0001F110-\U0001F12E'
    || '\U0001F130-\U0001F16B\U0001F170-\U0001F19A\U0001F1E6-\U0001F202\U0001F210-\U0001F23A'
    || '\U0001F240-\U0001F248\U0001F250-\U0001F251\U0001F300-\U0001F320\U0001F330-\U0001F335'
    || '\U0001F337-\U0001F37C\U0001F380-\U0001F393\U0001F3A0-\U0001F3C4\U0001F3C6-\U0001F3CA'
    || '\U0001F3E0-\U0001F3F0\U0001F400-\U0001F43E\U0001F440\U0001F442-\U0001F4F7\U0001F4F9-\U0001F4FC'
    || '\U0001F500-\U0001F53D\U0001F540-\U0001F543\U0001F550-\U0001F567\U0001F5FB-\U0001F640'
    || '\U0001F645-\U0001F64F\U0001F680-\U0001F6C5\U0001F700-\U0001F773\U000E0001\U000E0020-\U000E007F'
    || '\U000E0100-\U000E01EF'
    || ']+', ' ', 'g'), ' ');
  -- 3
  x := lower(x COLLATE "und-x-icu");
  -- 4: decomposed, a Latin letter's diacritics follow it (after lower case: a to z). Only
  -- text with such a letter is decomposed: precomposed ones, or a diacritic lower() made (İ).
  IF x IS NOT NFC NORMALIZED THEN
    x := normalize(x, NFC);
  END IF;
  IF x ~ '[\u00C0-\u0233\u0300-\u036F\u1E00-\u1EF9\u212B]' THEN
    x := normalize(regexp_replace(normalize(x, NFD), '([a-z])[\u0300-\u036F]+', '\1', 'g'), NFC);
  END IF;
  -- 5
  IF x ~ '[µſςϐϑϕϖϰϱϵẛ]' THEN
    x := translate(x, 'µſςϐϑϕϖϰϱϵẛ', 'μsσβθφπκρεs');
  END IF;
  RETURN x;
END
$$;
--> statement-breakpoint
-- The words of a text as the index holds them: parley_search_text's, each cut to 500
-- characters, as a tsvector lexeme holds at most 2046 bytes (db/messageSearch.ts checks longer
-- words of a search whole, as phrases). A regular expression counts to 255 at most.
CREATE FUNCTION parley_search_lexemes(t text) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1000 AS $$
DECLARE
  words text := parley_search_text(t);
BEGIN
  IF length(words) > 500 THEN
    words := regexp_replace(words, '(\S{250}\S{250})\S+', '\1', 'g');
  END IF;
  RETURN string_to_array(words, ' ');
END
$$;
--> statement-breakpoint
-- What the index holds for a message: the words of its topic and content, and a key naming its
-- conversation ('#r' and the recipient ID, as FTS5's scope column holds 'r' and the ID), which
-- no search word can equal or begin: # is a separator. No positions: GIN keeps none, and FTS5's
-- phrases are checked on the words themselves (parley_search_has_phrase).
CREATE FUNCTION parley_search_keys(topic text, content text, recipient_id bigint) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE COST 1000 AS $$
  SELECT array_to_tsvector(parley_search_lexemes(topic || ' ' || content) || ('#r' || recipient_id))
$$;
--> statement-breakpoint
-- A search term as the index is asked for it: every word of it (the last as a prefix when
-- `prefix`), as FTS5 reads a quoted string; NULL when the term has no word at all, which FTS5
-- finds nowhere. Words hold no quote or backslash (separators), so they need no escaping.
CREATE FUNCTION parley_search_query(term text, prefix boolean) RETURNS tsquery
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT ('''' || words || CASE WHEN prefix THEN ''':*' ELSE '''' END)::tsquery
  FROM (SELECT nullif(array_to_string(parley_search_lexemes(term), ''' & '''), '') AS words) AS term_words
$$;
--> statement-breakpoint
-- Whether the words of `term` follow one another in the topic or in the content (FTS5's
-- phrase: within one column), the last only beginning a word when `prefix`: checked on the rows
-- the index found, after everything else (its cost).
CREATE FUNCTION parley_search_has_phrase(topic text, content text, term text, prefix boolean) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE COST 3000 AS $$
  SELECT words <> ''
    AND (strpos(' ' || parley_search_text(topic) || ' ', ' ' || words || CASE WHEN prefix THEN '' ELSE ' ' END) > 0
      OR strpos(' ' || parley_search_text(content) || ' ', ' ' || words || CASE WHEN prefix THEN '' ELSE ' ' END) > 0)
  FROM (SELECT parley_search_text(term) AS words) AS term_words
$$;
--> statement-breakpoint
CREATE INDEX messages_search ON messages USING gin (parley_search_keys(topic, content, recipient_id));
