-- A live holder's handover to a run joining one of its shares (a relay's or a domain group's):
-- written by the holder's renewal that first counted the joiner, after it lowered its own pace,
-- in the same transaction. ages_ms are the holder's sends of the last second that its lowered pace
-- no longer holds (empty: none); the joiner counts them as its own and starts sending as soon as
-- every live holder has handed over, instead of waiting a fixed time for them to slow down.
-- joiner '' marks a released run's tail (V19), which any next run counts.
ALTER TABLE pace_tail
    ADD COLUMN joiner CHAR(36) NOT NULL DEFAULT '' AFTER holder,
    DROP PRIMARY KEY,
    ADD PRIMARY KEY (name, holder, joiner);

-- What a holder of a relay's rate can still use, when it is less than its share: a run left with
-- only capped domains to send to. The others share the rest of the relay's rate; NULL: as much as
-- its share. A run lowers it once and never raises it: the rest of the rate is then the others'.
ALTER TABLE relay_share ADD COLUMN wants DOUBLE NULL;
