-- The run token is a UUID: ASCII compared byte for byte. In the table's default utf8mb4_unicode_ci
-- every comparison in ix_recipient_run went through the Unicode collation and every key took up to
-- four bytes per character; the claim's stamp and each result's write both change that index, so
-- it sat on the hot path of every recipient (docs/BENCHMARKS.md, "Database cost").
-- Rebuilds the table (a copy): on a large table run it between campaigns.
ALTER TABLE recipient
    MODIFY run_token CHAR(36) CHARACTER SET ascii COLLATE ascii_bin NULL;
