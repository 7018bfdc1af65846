-- The subscribers' attributes as rows, one per subscriber and attribute name (docs/AUDIENCE.md,
-- "Segments"): what serves a segment's attribute conditions (equals, in, range, exists) from an index
-- instead of reading the JSON of every subscriber. subscriber.attribs stays the record; these rows
-- are derived from it by store.audience.SubscriberAttributeTable, in the transaction of every write
-- of attribs, with the expressions below (the same as the filters' in SubscriberFilterSql), so a
-- condition served here matches exactly whom it matches over the JSON.
--
-- name        the attribute's name, byte for byte (VARBINARY: JSON names are compared exactly; no
--             collation pads or folds them). At most 64 characters, 256 bytes.
-- text_value  JSON_UNQUOTE(JSON_EXTRACT(attribs, path)): a string as itself, a number or true/false as
--             the JSON writes it. utf8mb4_bin: compared as the filters compare (COLLATE utf8mb4_bin).
-- num_value   the text as DECIMAL(65,30) when it is written as a decimal, else NULL.

CREATE TABLE subscriber_attribute (
    subscriber_id BIGINT         NOT NULL,
    name          VARBINARY(256) NOT NULL,
    text_value    TEXT           CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    num_value     DECIMAL(65,30) NULL,
    PRIMARY KEY (subscriber_id, name),
    -- equals and in over texts: the first 100 characters in the index, the rest checked on the row
    KEY ix_subscriber_attribute_text (name, text_value(100)),
    -- equals and in over numbers, ranges
    KEY ix_subscriber_attribute_num (name, num_value),
    CONSTRAINT fk_subscriber_attribute_subscriber FOREIGN KEY (subscriber_id) REFERENCES subscriber (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- The subscribers there already; the statement of SubscriberAttributeTable.index over all of them.
INSERT INTO subscriber_attribute (subscriber_id, name, text_value, num_value)
SELECT v.id, v.name, v.t, CASE WHEN v.t REGEXP '^-?[0-9]{1,35}([.][0-9]{1,30})?$' THEN CAST(v.t AS DECIMAL(65,30)) END
FROM (SELECT s.id, k.name, JSON_UNQUOTE(JSON_EXTRACT(s.attribs, CONCAT('$."',
             REPLACE(REPLACE(k.name, CHAR(92 USING utf8mb4), CONCAT(CHAR(92 USING utf8mb4), CHAR(92 USING utf8mb4))),
                     '"', CONCAT(CHAR(92 USING utf8mb4), '"')), '"'))) AS t
      FROM subscriber s,
           JSON_TABLE(JSON_KEYS(s.attribs), '$[*]' COLUMNS (name VARCHAR(64) CHARACTER SET utf8mb4 PATH '$')) AS k
      WHERE s.attribs IS NOT NULL) v;
