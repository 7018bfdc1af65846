-- Duplicate recipients are found on the form suppression uses: the whole address lower-cased
-- (EmailAddress.suppressionKey()), so Ann@example.com and ann@example.com are one recipient of a
-- campaign, as they are one entry of the suppression list. Stored addresses are ASCII (the local
-- part is a dot-atom, the domain punycode), so LOWER() here equals the Java lower-casing.
--
-- Cost on the hot table: the new unique key replaces uq_recipient_email (campaign_id, email),
-- whose only reader was the import's duplicate check, so an insert maintains as many indexes as
-- before; claims and results never change email, so they maintain neither column's index. The key
-- is STORED, not VIRTUAL: an index on a virtual column makes InnoDB evaluate the expression again
-- on purge and rollback, for every row the queue updates.
--
-- A campaign may already hold addresses differing only in case. Those rows are kept, every one
-- still to be sent or recorded: the first of each group (lowest id) keeps legacy_duplicate = 0,
-- every later one gets its own id there, which keeps the unique key unique. New rows always have
-- 0, so they collide with the first of any group.
ALTER TABLE recipient
    ADD COLUMN email_key VARCHAR(254) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin AS (LOWER(email)) STORED AFTER email,
    ADD COLUMN legacy_duplicate BIGINT NOT NULL DEFAULT 0 AFTER email_key;

UPDATE recipient r
JOIN (SELECT campaign_id, email_key, MIN(id) AS first_id
      FROM recipient GROUP BY campaign_id, email_key HAVING COUNT(*) > 1) d
  ON r.campaign_id = d.campaign_id AND r.email_key = d.email_key AND r.id > d.first_id
SET r.legacy_duplicate = r.id;

ALTER TABLE recipient
    ADD UNIQUE KEY uq_recipient_email_key (campaign_id, email_key, legacy_duplicate),
    DROP KEY uq_recipient_email;
