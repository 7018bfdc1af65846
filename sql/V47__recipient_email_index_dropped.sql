-- ix_recipient_email (V6) served one lookup: a provider event attributed by its address to the latest
-- send in any campaign. That lookup now goes through the campaigns on uq_recipient_email_key
-- (campaign_id, email_key), as the address's other lookups do, and matches the address with its case
-- ignored. The index cost every recipient row written a random insert into a tree over all campaigns'
-- addresses: about a fifth of the time a 1,000,000-person list takes to become a campaign's recipients
-- (docs/BENCHMARKS.md, "Audience").
DROP INDEX ix_recipient_email ON recipient;
