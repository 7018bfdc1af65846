-- A campaign's own message as its operator wrote it (docs/CONTENT.md, "A campaign's own message"):
-- the layout, the subject, the body in its format (markdown or html) and the text part when one was
-- given, kept with the template version the message was composed into. The message page, the API's
-- GET /campaigns/{id}/message and `campaign message --show` read it back for the version a campaign
-- pins. A version stored before this table, or saved as a whole template, has no row. The row goes
-- with its version.
CREATE TABLE message_source (
    template_id BIGINT      NOT NULL,
    version     INT         NOT NULL,
    layout      VARCHAR(64) NOT NULL,
    subject     TEXT        NOT NULL,
    format      VARCHAR(8)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    body        MEDIUMTEXT  NOT NULL,
    -- the text part as written; NULL: read out of the body's HTML
    body_text   MEDIUMTEXT  NULL,
    written_by  VARCHAR(200) NOT NULL,
    written_at  DATETIME(3) NOT NULL,
    PRIMARY KEY (template_id, version),
    CONSTRAINT message_source_version FOREIGN KEY (template_id, version)
        REFERENCES template_version (template_id, version) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
