-- A/B tests (docs/MAIL.md, "A/B variants"): which recipients were the test share, and when every
-- recipient outside it was given the winner.
--
-- recipient.ab_test_share     1: given its variant with the test share; 0: the rest (given the winner
--                             once it is picked) and recipients of campaigns without a test. Status
--                             shows the test share's figures (what the winner was picked by) and the
--                             rest's apart. At the end of the row: an instant change on both servers.
-- campaign_ab.rest_given_at   when every recipient without a variant was given the winner; NULL while
--                             no winner, or while a run that picked one has not finished giving it (a
--                             crash part-way): the next run gives it to those still without one.
ALTER TABLE recipient
    ADD COLUMN ab_test_share TINYINT(1) NOT NULL DEFAULT 0;

ALTER TABLE campaign_ab
    ADD COLUMN rest_given_at DATETIME(3) NULL;

-- Tests begun before this version. Before a pick only the test share has variants; after it, a
-- recipient of a losing variant was in the test share, and one of the winner was if it was done
-- (no longer waiting or being sent) when the winner was picked and has not changed since: the rest
-- could not be claimed before the pick.
UPDATE recipient r JOIN campaign_ab a ON a.campaign_id = r.campaign_id
SET r.ab_test_share = 1
WHERE r.variant IS NOT NULL
  AND (a.winner IS NULL OR r.variant <> a.winner
       OR (r.status NOT IN ('pending', 'retry', 'sending') AND r.updated_at <= a.decided_at));

-- A winner picked automatically was never stored with the rest, which were sent it all the same (a
-- recipient without a variant is sent the winner): store it with them now.
UPDATE recipient r JOIN campaign_ab a ON a.campaign_id = r.campaign_id
SET r.variant = a.winner
WHERE a.winner IS NOT NULL AND r.variant IS NULL;

UPDATE campaign_ab SET rest_given_at = decided_at WHERE winner IS NOT NULL;
