-- A/B variants (docs/MAIL.md, "A/B variants"): versions of a campaign's message sent to an even
-- split of a test share of its list first; the winner goes to the rest.
--
-- campaign_ab       one row per campaign with variants: the test share, when and how the winner is
--                   picked, and what happened (assigned, test share sent, winner and why).
-- campaign_variant  one row per variant, position 0-4 in the order given: what it changes (NULL:
--                   the campaign's own value). recipient.variant holds the position.

CREATE TABLE campaign_ab (
    campaign_id          BIGINT        NOT NULL,
    test_share_percent   TINYINT       NOT NULL,
    -- NULL: decided by `campaign pick` only (--decide manual)
    decide_after_seconds BIGINT        NULL,
    -- manual (clicks and replies once they can be measured)
    pick_by              VARCHAR(16)   CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    -- set once, by the statement that gave the test share its variants
    test_size            INT           NULL,
    assigned_at          DATETIME(3)   NULL,
    -- the first run that found every test recipient done (sent, failed, …)
    test_done_at         DATETIME(3)   NULL,
    winner               TINYINT       NULL,
    winner_reason        VARCHAR(500)  NULL,
    decided_at           DATETIME(3)   NULL,
    PRIMARY KEY (campaign_id),
    CONSTRAINT fk_campaign_ab_campaign FOREIGN KEY (campaign_id) REFERENCES campaign (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE campaign_variant (
    campaign_id  BIGINT        NOT NULL,
    position     TINYINT       NOT NULL,
    name         VARCHAR(20)   CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    subject      VARCHAR(500)  NULL,
    template     VARCHAR(100)  NULL,
    from_name    VARCHAR(200)  NULL,
    -- campaign-level merge fields this variant sets: a JSON object of strings
    fields       JSON          NULL,
    PRIMARY KEY (campaign_id, position),
    UNIQUE KEY uq_campaign_variant_name (campaign_id, name),
    CONSTRAINT fk_campaign_variant_campaign FOREIGN KEY (campaign_id) REFERENCES campaign (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- The variant a recipient is sent (campaign_variant.position), fixed once: the test share gets its
-- variants in one statement before its first claim, the rest the winner when it is picked. NULL:
-- not in the test share and no winner yet. At the end of the row: an instant change on both servers.
ALTER TABLE recipient
    ADD COLUMN variant TINYINT NULL;
