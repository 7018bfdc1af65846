-- Sign-up forms and consent (docs/SIGNUP.md).
--
-- subscriber_list.language  the language of a list's public pages and confirmation message (en, de);
--                           NULL: signup.language
-- subscription_consent      for a subscription: when and how the person consented, the form's wording
--                           version, when they confirmed, and (only with signup.store-ip=true) the
--                           client address. A pending double opt-in keeps the SHA-256 of its
--                           confirmation link's nonce (never the link itself): the one link that
--                           can confirm it, cleared once used, so a link works once.
-- A subscription without a consent row (added before this version, by an import, the API or an
-- operator) reads its consent from the subscription: its source and creation time.

ALTER TABLE subscriber_list ADD COLUMN language VARCHAR(8) CHARACTER SET ascii COLLATE ascii_bin NULL;

CREATE TABLE subscription_consent (
    subscriber_id BIGINT      NOT NULL,
    list_id       BIGINT      NOT NULL,
    -- import, api, form, operator (as subscription.source)
    source        VARCHAR(8)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    -- signup.wording-version when the form was sent; NULL for other sources
    wording       VARCHAR(64) NULL,
    consented_at  DATETIME(3) NOT NULL,
    confirmed_at  DATETIME(3) NULL,
    -- the client's address as text (IPv6 at most 45 characters); NULL unless signup.store-ip=true
    client_ip     VARCHAR(45) CHARACTER SET ascii COLLATE ascii_bin NULL,
    -- SHA-256 of the pending confirmation link's nonce; NULL when none is pending
    confirm_hash  BINARY(32)  NULL,
    PRIMARY KEY (subscriber_id, list_id),
    KEY ix_subscription_consent_list (list_id),
    CONSTRAINT ck_subscription_consent_source CHECK (source IN ('import', 'api', 'form', 'operator')),
    CONSTRAINT fk_subscription_consent_subscription FOREIGN KEY (subscriber_id, list_id)
        REFERENCES subscription (subscriber_id, list_id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
