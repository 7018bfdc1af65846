-- Replies (docs/MAIL.md, "Replies"): a person's answer to a campaign's message, read from the
-- replies mailbox (replies.imap.*) and traced to the send by the signed Message-ID it answers.
--
-- recipient_reply  one row per recipient who replied: the first reply's time (its Date, or when it
--                  was read if the Date is missing or in the future) and when it was recorded. A
--                  second reply changes nothing. What --pick-by replies counts per variant. Rows
--                  are written only for a recipient row of that campaign (the insert joins it).

CREATE TABLE recipient_reply (
    campaign_id  BIGINT      NOT NULL,
    recipient_id BIGINT      NOT NULL,
    replied_at   DATETIME(3) NOT NULL,
    recorded_at  DATETIME(3) NOT NULL,
    PRIMARY KEY (campaign_id, recipient_id),
    CONSTRAINT fk_recipient_reply_campaign FOREIGN KEY (campaign_id) REFERENCES campaign (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
