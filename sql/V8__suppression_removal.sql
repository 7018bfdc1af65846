-- Moving suppression lists in and out, and taking addresses off them on the record.

-- An imported suppression carries the import it came from and its line in the file, as an imported
-- recipient does: when a batch's INSERT IGNORE adds fewer rows than it carried, these two columns tell
-- an address an earlier line of the same file added (a duplicate in the file) from one that was
-- already suppressed, without holding the file's addresses in memory. NULL for every other source.
-- suppression.reason gains 'imported' (an address from another system's list, reason unknown).
ALTER TABLE suppression
    ADD COLUMN import_id   CHAR(36) NULL,
    ADD COLUMN import_line BIGINT   NULL;

-- suppressions list (newest first) and --since read by creation time.
CREATE INDEX ix_suppression_created ON suppression (created_at);

-- Every removal from the suppression list, with the suppression it undid and why: an address is never
-- taken off the list silently. Rows are only ever inserted.
CREATE TABLE suppression_removal (
    id            BIGINT        NOT NULL AUTO_INCREMENT,
    -- the suppression key that was removed: the whole address lower-cased
    address       VARCHAR(254)  CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    -- what the removed row said
    reason        VARCHAR(16)   NOT NULL,
    source        VARCHAR(500)  NOT NULL,
    suppressed_at DATETIME(3)   NOT NULL,
    -- the operator's reason for mailing the address again, and who removed it (the OS user)
    why           VARCHAR(1000) NOT NULL,
    removed_by    VARCHAR(255)  NOT NULL,
    removed_at    DATETIME(3)   NOT NULL,
    PRIMARY KEY (id),
    KEY ix_suppression_removal_address (address, removed_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
