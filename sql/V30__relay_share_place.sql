-- When a holder joined a relay's (or a domain group's) share, judged by the database clock. A run
-- that ends at its deadline while sharing the relay keeps its campaign's place among the holders
-- until just after the next slot (holder 'next-campaign-<id>'); the others count it meanwhile. The
-- campaign's next run may then send at once instead of waiting for the others to slow down: each of
-- them joined after the place was kept, so none ever sent at a share that did not count it.
ALTER TABLE relay_share
    ADD COLUMN joined_at DATETIME(3) NULL;
