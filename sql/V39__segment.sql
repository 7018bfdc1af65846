-- Segments (docs/AUDIENCE.md, "Segments"): saved filters over the subscribers. A filter is JSON data
-- in mailrun's grammar, checked and compiled to a parameterised WHERE clause by
-- audience.segment.FilterCompiler each time it is read; no SQL is ever stored.

CREATE TABLE segment (
    id         BIGINT       NOT NULL AUTO_INCREMENT,
    -- unique whatever the letter case (the table's collation ignores it), as a list's name
    name       VARCHAR(100) NOT NULL,
    -- the filter as compact JSON; MariaDB keeps JSON as LONGTEXT and checks it with JSON_VALID
    filter     JSON         NOT NULL,
    created_at DATETIME(3)  NOT NULL,
    updated_at DATETIME(3)  NOT NULL,
    PRIMARY KEY (id),
    UNIQUE KEY uq_segment_name (name)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
