-- Deliverability: what bounces and complaints did, per send and per address. Additive only.

-- One row per (recipient, kind) ever applied. Inserting it is the first statement of applying a
-- bounce, in the same transaction as the bounce's effects: a bounce read twice (a crash between
-- commit and marking the message processed, a relay's repeated "delayed" warnings) finds its row and
-- changes nothing. It is also the audit trail of why an address was suppressed.
CREATE TABLE bounce_event (
    recipient_id BIGINT        NOT NULL,
    -- hard, soft, complaint
    kind         VARCHAR(16)   NOT NULL,
    campaign_id  BIGINT        NOT NULL,
    address      VARCHAR(254)  CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    status       VARCHAR(16)   NOT NULL,   -- enhanced status code, e.g. 5.1.1; '' for complaints
    diagnostic   VARCHAR(1000) NULL,
    created_at   DATETIME(3)   NOT NULL,
    PRIMARY KEY (recipient_id, kind),
    KEY ix_bounce_event_campaign (campaign_id, kind),
    CONSTRAINT fk_bounce_event_recipient FOREIGN KEY (recipient_id) REFERENCES recipient (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- Soft bounces (4.x.x) per address, counted once per send; at bounce.soft-limit the address is
-- suppressed. Keyed like suppression.address: the whole address lower-cased.
CREATE TABLE soft_bounce (
    address   VARCHAR(254)  CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    bounces   INT           NOT NULL,
    first_at  DATETIME(3)   NOT NULL,
    last_at   DATETIME(3)   NOT NULL,
    PRIMARY KEY (address)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- Bounces without a return-path token are matched by the Message-ID of the original message.
CREATE INDEX ix_recipient_message_id ON recipient (message_id);
