-- Segments (docs/AUDIENCE.md, "Segments"): saved filters over the subscribers. A filter is JSON data
-- in mailrun's grammar, checked and compiled to a parameterised WHERE clause by
-- audience.segment.FilterCompiler each time it is read; no SQL is ever stored.

CREATE TABLE segment (
    id         BIGINT       NOT NULL AUTO_INCREMENT,
    -- unique whatever the letter case (the table's collation ignores it), as a list's name
    name       VARCHAR(100) NOT NULL,
    -- the filter as compact JSON, as the operator wrote it. Text, not JSON: MySQL's JSON type would
    -- give it back with its keys reordered and spaces added; MEDIUMTEXT: FilterParser takes up to
    -- 1,000,000 characters.
    filter     MEDIUMTEXT   CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    created_at DATETIME(3)  NOT NULL,
    updated_at DATETIME(3)  NOT NULL,
    PRIMARY KEY (id),
    UNIQUE KEY uq_segment_name (name),
    CONSTRAINT ck_segment_filter CHECK (JSON_VALID(filter))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
