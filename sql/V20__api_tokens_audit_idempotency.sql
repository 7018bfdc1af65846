-- The HTTP API (/api/v1 on the admin listener): its tokens, the audit trail of its writes, and the
-- idempotency keys of its POSTs.

-- One row per API token. The token itself is never stored: only the SHA-256 of it, which is what a
-- request's token is looked up and compared by. A revoked token keeps its row (the audit trail names
-- it), so a name is never reused.
CREATE TABLE api_token (
    id           BIGINT       NOT NULL AUTO_INCREMENT,
    name         VARCHAR(64)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    token_sha256 BINARY(32)   NOT NULL,
    -- comma-separated, e.g. campaigns:read,recipients:write
    scopes       VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    created_at   DATETIME(3)  NOT NULL,
    -- written at most once a minute per token, so a busy client does not write on every request
    last_used_at DATETIME(3)  NULL,
    revoked_at   DATETIME(3)  NULL,
    PRIMARY KEY (id),
    UNIQUE KEY ux_api_token_name (name),
    UNIQUE KEY ux_api_token_sha256 (token_sha256)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- Every write through the API, allowed or refused: who (the token's name, or admin.token), what,
-- on what, when, and how it ended. Rows are only ever inserted.
CREATE TABLE api_audit (
    id         BIGINT        NOT NULL AUTO_INCREMENT,
    at         DATETIME(3)   NOT NULL,
    token_name VARCHAR(64)   CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    action     VARCHAR(64)   NOT NULL,
    target     VARCHAR(255)  NOT NULL,
    -- the HTTP status of the answer
    status     SMALLINT      NOT NULL,
    detail     VARCHAR(1000) NULL,
    PRIMARY KEY (id),
    KEY ix_api_audit_at (at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- Idempotency keys of POST requests, per token, kept 24 hours. A row is inserted before the request
-- is carried out (status NULL: under way), so a retry that arrives meanwhile is told to wait, and
-- completed with the answer, which a retry with the same key and the same request gets again.
CREATE TABLE api_idempotency (
    token_name     VARCHAR(64)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    idem_key       VARCHAR(128) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    -- SHA-256 of the method, the path with its query, and the body
    request_sha256 BINARY(32)   NOT NULL,
    created_at     DATETIME(3)  NOT NULL,
    status         SMALLINT     NULL,
    content_type   VARCHAR(100) NULL,
    -- the answer's own headers (Location, ETag), one "Name: value" a line
    headers        VARCHAR(2000) NULL,
    body           MEDIUMBLOB   NULL,
    PRIMARY KEY (token_name, idem_key),
    KEY ix_api_idempotency_created (created_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
