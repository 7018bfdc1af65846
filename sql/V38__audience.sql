-- The audience (docs/AUDIENCE.md): people kept beyond one campaign, the lists they subscribe to, and
-- what happened to them.
--
-- subscriber        one row per address, normalised as a recipient's is (EmailAddress.value(): local
--                   part as written, domain lower-cased and in punycode) and unique on the whole
--                   address lower-cased (email_key, the rule of recipient.email_key in V7 and of the
--                   suppression list), so Ann@example.com and ann@example.com are one subscriber.
-- subscriber_list   a list: its name (unique, case ignored), who sees it, how people opt in.
-- subscription      a subscriber on a list: unconfirmed, confirmed or unsubscribed, and from where.
-- subscriber_event  a subscriber's history, newest read first; only ever inserted.
--
-- Deleting a subscriber deletes its subscriptions and history; deleting a list deletes its
-- subscriptions and leaves the history naming no list.

CREATE TABLE subscriber (
    id          BIGINT       NOT NULL AUTO_INCREMENT,
    email       VARCHAR(254) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    -- Stored addresses are ASCII, so LOWER() here equals the Java lower-casing (suppressionKey()).
    -- STORED, not VIRTUAL, as recipient.email_key: an index on a virtual column is evaluated again on
    -- purge and rollback.
    email_key   VARCHAR(254) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin AS (LOWER(email)) STORED,
    name        VARCHAR(200) NULL,
    -- a JSON object of strings, numbers and booleans; NULL: none. Bounded by the application
    -- (audience.Attributes: at most 64 keys, 8 KiB); the key count is held here too.
    attribs     JSON         NULL,
    -- enabled, blocklisted (mailed by no list)
    status      VARCHAR(12)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    -- the last import that read this address, and the line it read it on: how an import tells a
    -- repeat of an earlier line of its own file from a subscriber that was there before, without
    -- holding the file's addresses in memory (as recipient.import_id and suppression.import_id do)
    import_id   CHAR(36)     CHARACTER SET ascii COLLATE ascii_bin NULL,
    import_line BIGINT       NULL,
    created_at  DATETIME(3)  NOT NULL,
    updated_at  DATETIME(3)  NOT NULL,
    PRIMARY KEY (id),
    UNIQUE KEY uq_subscriber_email_key (email_key),
    -- search by status, in id order (keyset pages)
    KEY ix_subscriber_status (status, id),
    CONSTRAINT ck_subscriber_status CHECK (status IN ('enabled', 'blocklisted')),
    CONSTRAINT ck_subscriber_attribs CHECK (JSON_TYPE(attribs) = 'OBJECT' AND JSON_LENGTH(attribs) <= 64)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE subscriber_list (
    id          BIGINT        NOT NULL AUTO_INCREMENT,
    -- unique whatever the letter case (the table's collation ignores it)
    name        VARCHAR(100)  NOT NULL,
    description VARCHAR(1000) NULL,
    -- public: shown on the public subscription forms; private: only operators add people
    visibility  VARCHAR(8)    CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    -- single: a new subscription is confirmed; double: unconfirmed until the person confirms
    optin       VARCHAR(8)    CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    created_at  DATETIME(3)   NOT NULL,
    updated_at  DATETIME(3)   NOT NULL,
    PRIMARY KEY (id),
    UNIQUE KEY uq_subscriber_list_name (name),
    CONSTRAINT ck_subscriber_list_visibility CHECK (visibility IN ('public', 'private')),
    CONSTRAINT ck_subscriber_list_optin CHECK (optin IN ('single', 'double'))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE subscription (
    subscriber_id BIGINT      NOT NULL,
    list_id       BIGINT      NOT NULL,
    -- unconfirmed, confirmed, unsubscribed
    status        VARCHAR(12) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    -- where the subscription came from: import, api, form, operator
    source        VARCHAR(8)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    created_at    DATETIME(3) NOT NULL,
    updated_at    DATETIME(3) NOT NULL,
    PRIMARY KEY (subscriber_id, list_id),
    -- a list's counts per status, and its members in subscriber order (keyset pages)
    KEY ix_subscription_list (list_id, status, subscriber_id),
    CONSTRAINT ck_subscription_status CHECK (status IN ('unconfirmed', 'confirmed', 'unsubscribed')),
    CONSTRAINT ck_subscription_source CHECK (source IN ('import', 'api', 'form', 'operator')),
    CONSTRAINT fk_subscription_subscriber FOREIGN KEY (subscriber_id) REFERENCES subscriber (id) ON DELETE CASCADE,
    CONSTRAINT fk_subscription_list FOREIGN KEY (list_id) REFERENCES subscriber_list (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE subscriber_event (
    id            BIGINT       NOT NULL AUTO_INCREMENT,
    subscriber_id BIGINT       NOT NULL,
    at            DATETIME(3)  NOT NULL,
    -- created, imported, updated, subscribed, confirmed, unsubscribed, blocklisted; no CHECK: the
    -- history gains kinds (sends, bounces, complaints, opens, clicks) without a migration
    kind          VARCHAR(16)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    -- the list it is about, if any; NULL once that list is deleted (detail still names it)
    list_id       BIGINT       NULL,
    detail        VARCHAR(500) NULL,
    PRIMARY KEY (id),
    -- a subscriber's history, newest first (the index holds id)
    KEY ix_subscriber_event_subscriber (subscriber_id),
    KEY ix_subscriber_event_list (list_id),
    CONSTRAINT fk_subscriber_event_subscriber FOREIGN KEY (subscriber_id) REFERENCES subscriber (id) ON DELETE CASCADE,
    CONSTRAINT fk_subscriber_event_list FOREIGN KEY (list_id) REFERENCES subscriber_list (id) ON DELETE SET NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
