-- Feedback from email providers (SES, Postmark, SendGrid, Mailgun webhooks). Additive only.

-- The provider events already applied, by the provider's own id (SNS MessageId and recipient index,
-- Postmark ID, SendGrid sg_event_id, Mailgun event id), and the Mailgun signature tokens already
-- used. Inserting the row is the first statement of applying an event, in the same transaction as
-- its effects: a provider that retries a delivery finds the row and changes nothing. Rows older
-- than seven days (longer than any provider retries) are pruned.
CREATE TABLE feedback_event (
    provider    VARCHAR(16)   NOT NULL,
    event_id    VARCHAR(255)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    received_at DATETIME(3)   NOT NULL,
    PRIMARY KEY (provider, event_id),
    KEY ix_feedback_event_received (received_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- An event whose echoed metadata is missing or does not match is attributed by its address to the
-- latest send to it, in any campaign.
CREATE INDEX ix_recipient_email ON recipient (email);
