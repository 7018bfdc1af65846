-- What a campaign's sending run has marked for sending and not yet recorded moves from the
-- recipient rows into one row per campaign (docs/BENCHMARKS.md, "In flight in one row").
--
-- A recipient used to be marked by writing its row (status 'sending' and the run token) just
-- before its message went to SMTP, and written again with its result: two row writes, each moving
-- index entries. Only one run of a campaign's task holds its lease, and every write of a run is
-- fenced by that lease, so the row-level token guarded nothing the lease does not. The run now
-- writes the ids it has marked and not yet recorded into recipient_in_flight, in the transaction
-- that extends its lease (marks) or checkpoints its counters (results); the recipient row is
-- written once, with its result. A run that dies leaves its ids here, and the run that takes the
-- task over turns those still waiting into 'unknown' in the same transaction.
--
-- Stop every worker before applying it: rows a running worker of an earlier version holds in
-- 'sending' become 'unknown' here.
--
-- Rebuilds the recipient table (a copy): on a large table run it between campaigns.

CREATE TABLE recipient_in_flight (
    campaign_id   BIGINT      NOT NULL,
    -- the run that holds the row; NULL once the ids it left were dealt with
    run_token     CHAR(36)    CHARACTER SET ascii COLLATE ascii_bin NULL,
    -- marked for sending and not yet recorded: ascending decimal ids, comma-separated; '' for none
    recipient_ids MEDIUMTEXT  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    updated_at    DATETIME(3) NOT NULL,
    PRIMARY KEY (campaign_id),
    CONSTRAINT fk_recipient_in_flight_campaign FOREIGN KEY (campaign_id) REFERENCES campaign (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

UPDATE recipient SET status = 'unknown', updated_at = UTC_TIMESTAMP(3) WHERE status = 'sending';

ALTER TABLE recipient
    DROP KEY ix_recipient_claim,
    DROP COLUMN run_token,
    ADD KEY ix_recipient_claim (campaign_id, status, next_attempt_at, id);
