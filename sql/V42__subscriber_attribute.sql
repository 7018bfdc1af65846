-- The subscribers' attributes as rows, one per subscriber and attribute name (docs/AUDIENCE.md,
-- "Segments"): what serves a segment's attribute conditions (equals, in, range, exists) from an index
-- instead of reading the JSON of every subscriber. subscriber.attribs stays the record; these rows
-- are derived from it by store.audience.SubscriberAttributeTable, in the transaction of every write
-- of attribs, with the expressions below (the same as the filters' in SubscriberFilterSql), so a
-- condition served here matches exactly whom it matches over the JSON.
--
-- name        the attribute's name, byte for byte (VARBINARY: JSON names are compared exactly; no
--             collation pads or folds them). At most 64 characters, 256 bytes.
-- text        JSON_UNQUOTE(JSON_EXTRACT(attribs, path)): a string as itself, a number or true/false as
--             the JSON writes it; compared as the filters compare it (COLLATE utf8mb4_bin, which
--             ignores trailing spaces), so it is kept in one of two columns:
--   text_value  the text without its trailing spaces when that is at most 190 characters: whole in
--               the index, which then answers an equals alone (no row read);
--   text_long   the text when it is longer (text_value NULL), compared on the row.
-- num_value   the text as DECIMAL(65,30) when it is written as a decimal, else NULL.

CREATE TABLE subscriber_attribute (
    subscriber_id BIGINT         NOT NULL,
    name          VARBINARY(256) NOT NULL,
    text_value    VARCHAR(190)   CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
    text_long     TEXT           CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
    num_value     DECIMAL(65,30) NULL,
    PRIMARY KEY (subscriber_id, name),
    -- equals and in over texts of at most 190 characters
    KEY ix_subscriber_attribute_text (name, text_value),
    -- equals and in over numbers, ranges
    KEY ix_subscriber_attribute_num (name, num_value),
    CONSTRAINT fk_subscriber_attribute_subscriber FOREIGN KEY (subscriber_id) REFERENCES subscriber (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- The subscribers there already; the statement of SubscriberAttributeTable.index over all of them.
INSERT INTO subscriber_attribute (subscriber_id, name, text_value, text_long, num_value)
SELECT v.id, v.name,
       CASE WHEN CHAR_LENGTH(TRIM(TRAILING ' ' FROM v.t)) <= 190 THEN TRIM(TRAILING ' ' FROM v.t) END,
       CASE WHEN CHAR_LENGTH(TRIM(TRAILING ' ' FROM v.t)) > 190 THEN v.t END,
       CASE WHEN v.t REGEXP '^-?[0-9]{1,35}([.][0-9]{1,30})?$' THEN CAST(v.t AS DECIMAL(65,30)) END
FROM (SELECT s.id, k.name, JSON_UNQUOTE(JSON_EXTRACT(s.attribs, CONCAT('$."',
             REPLACE(REPLACE(k.name COLLATE utf8mb4_bin, CHAR(92 USING utf8mb4), CONCAT(CHAR(92 USING utf8mb4), CHAR(92 USING utf8mb4))),
                     '"', CONCAT(CHAR(92 USING utf8mb4), '"')), '"'))) AS t
      FROM subscriber s,
           JSON_TABLE(JSON_KEYS(s.attribs), '$[*]' COLUMNS (name VARCHAR(64) CHARACTER SET utf8mb4 PATH '$')) AS k
      WHERE s.attribs IS NOT NULL) v;
