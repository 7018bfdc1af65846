-- The console's users logged in by an authenticating proxy are recorded as proxy:<user>, a user name
-- of up to 128 printable ASCII characters: longer than any API token's name (64).
ALTER TABLE api_audit MODIFY token_name VARCHAR(140) CHARACTER SET ascii COLLATE ascii_bin NOT NULL;
