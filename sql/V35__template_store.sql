-- Templates as data: a name and its immutable versions. A version is the template's whole text
-- (subject, text part, HTML part, properties), saved only once it compiled, with who saved it and
-- when; a save whose text equals the latest version stores nothing (digest). Campaigns pin a
-- version, so what they send never changes under them.
CREATE TABLE template (
    id             BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
    name           VARCHAR(64)  NOT NULL,
    latest_version INT          NOT NULL,
    created_at     DATETIME(3)  NOT NULL,
    updated_at     DATETIME(3)  NOT NULL,
    UNIQUE KEY template_name (name)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE template_version (
    template_id BIGINT       NOT NULL,
    version     INT          NOT NULL,
    subject     TEXT         NOT NULL,
    body_text   MEDIUMTEXT   NOT NULL,
    body_html   MEDIUMTEXT   NOT NULL,
    properties  TEXT         NULL,
    digest      CHAR(64)     NOT NULL,
    saved_by    VARCHAR(200) NOT NULL,
    saved_at    DATETIME(3)  NOT NULL,
    PRIMARY KEY (template_id, version),
    CONSTRAINT template_version_template FOREIGN KEY (template_id) REFERENCES template (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
