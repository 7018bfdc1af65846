-- Files a campaign's messages carry (docs/MAIL.md, "Attachments"), copied here when the campaign is
-- created so that a campaign never depends on a file that may change or vanish afterwards.
--
-- campaign_attachment  one row per file, in the order given (position); content is the file as it
--                      was read, sha256 its checksum (hex), content_type what was detected from its
--                      content and name. Every message of the campaign carries every row: attached,
--                      or inline (an image the HTML shows).

CREATE TABLE campaign_attachment (
    campaign_id  BIGINT        NOT NULL,
    position     SMALLINT      NOT NULL,
    filename     VARCHAR(255)  NOT NULL,
    content_type VARCHAR(127)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    size_bytes   BIGINT        NOT NULL,
    sha256       CHAR(64)      CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    content      LONGBLOB      NOT NULL,
    -- 1: an image shown in the HTML body (Content-ID <filename>, referenced as cid:filename)
    inline       TINYINT(1)    NOT NULL DEFAULT 0,
    created_at   DATETIME(3)   NOT NULL,
    PRIMARY KEY (campaign_id, position),
    CONSTRAINT fk_campaign_attachment_campaign FOREIGN KEY (campaign_id) REFERENCES campaign (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- A recipient's own file (recipients import, the attachment column): its path under
-- content.recipient-files as imported, and the SHA-256 (hex) of the file the import checked. The
-- message carries the file only while it still has that checksum, so what was sent is what was
-- checked. NULL: no file of its own. Both at the end of the row: an instant change on MySQL 8 and MariaDB.
ALTER TABLE recipient
    ADD COLUMN attachment        VARCHAR(1024) NULL,
    ADD COLUMN attachment_sha256 CHAR(64)      CHARACTER SET ascii COLLATE ascii_bin NULL;
