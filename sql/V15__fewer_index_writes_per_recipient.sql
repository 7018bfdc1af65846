-- Fewer index entries rewritten per recipient on the sending path (docs/BENCHMARKS.md, "Database cost").
--
-- The claim index carries the run token, and the token's own index goes: a result's write (status
-- and token change together) rewrites one entry of the claim index instead of one there and one in
-- ix_recipient_run, a claim no longer reads rows another run holds, and the clean-up after an
-- abandoned run finds its rows by (campaign, status, token).
--
-- The domain index keys on whether a row waits to be sent (pending or retry) instead of its status:
-- marking a recipient sending moves its entry once; sending, sent and the other outcomes of an
-- attempt leave it where it is.
--
-- Rebuilds the table (a copy): on a large table run it between campaigns.
ALTER TABLE recipient
    ADD COLUMN queued TINYINT AS (status IN ('pending', 'retry')) STORED AFTER domain,
    DROP KEY ix_recipient_claim,
    DROP KEY ix_recipient_run,
    DROP KEY ix_recipient_domain_claim,
    ADD KEY ix_recipient_claim (campaign_id, status, run_token, next_attempt_at, id),
    ADD KEY ix_recipient_domain_claim (campaign_id, domain, queued, next_attempt_at, id);
