-- Engagement tracking (docs/TRACKING.md): opt-in per campaign, off unless tracking.enabled.
--
-- campaign_tracking  one row per tracked campaign: what its messages track (campaign create --track).
--                    A campaign without a row is not tracked and its messages are what they were
--                    before tracking existed.
-- tracked_link       the template's links as they were when a run rewrote them: a click on
--                    <base>/c/<token> redirects only to the url of the token's (campaign, link_index).
-- tracking_event     one row per open or click recorded: its class (human, machine_open, scanner,
--                    unknown), when, and a coarse client family. No IP address, no user agent.
--                    recipient_id is NULL when tracking.per-recipient=false. Expired after
--                    tracking.retention.
-- recipient.tracking_erased  1: the address's tracking data was erased (tracking erase); its
--                    tracking links answer 404 and record nothing more.

CREATE TABLE campaign_tracking (
    campaign_id BIGINT      NOT NULL,
    opens       TINYINT(1)  NOT NULL,
    clicks      TINYINT(1)  NOT NULL,
    created_at  DATETIME(3) NOT NULL,
    PRIMARY KEY (campaign_id),
    CONSTRAINT fk_campaign_tracking_campaign FOREIGN KEY (campaign_id) REFERENCES campaign (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE tracked_link (
    campaign_id BIGINT        NOT NULL,
    link_index  SMALLINT      NOT NULL,
    url         VARCHAR(2048) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    updated_at  DATETIME(3)   NOT NULL,
    PRIMARY KEY (campaign_id, link_index),
    CONSTRAINT fk_tracked_link_campaign FOREIGN KEY (campaign_id) REFERENCES campaign (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE tracking_event (
    id            BIGINT      NOT NULL AUTO_INCREMENT,
    campaign_id   BIGINT      NOT NULL,
    recipient_id  BIGINT      NULL,
    -- 'open' or 'click'; link_index is NULL for opens
    kind          VARCHAR(8)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    link_index    SMALLINT    NULL,
    -- human, machine_open, scanner, unknown
    class         VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    client_family VARCHAR(32) CHARACTER SET ascii COLLATE ascii_bin NULL,
    at            DATETIME(3) NOT NULL,
    PRIMARY KEY (id),
    KEY ix_tracking_event_report (campaign_id, kind, class, link_index),
    KEY ix_tracking_event_recipient (recipient_id),
    KEY ix_tracking_event_at (at),
    CONSTRAINT fk_tracking_event_campaign FOREIGN KEY (campaign_id) REFERENCES campaign (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- At the end of the row: an instant change on MySQL 8 and MariaDB.
ALTER TABLE recipient
    ADD COLUMN tracking_erased TINYINT(1) NOT NULL DEFAULT 0;
