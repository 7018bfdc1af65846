package dev.mailrun.campaign;

import dev.mailrun.campaign.model.RunCounts;
import java.time.Instant;
import java.util.Optional;

/**
 * One run of a campaign's sending task, as its history shows it ({@link Campaigns#runs}).
 *
 * @param items  the messages the run tried (sent + failed + deferred); empty while it runs
 * @param counts what it did with the recipients it took, each counted once ({@link RunCounts})
 */
public record CampaignRun(long id, Instant startedAt, Optional<Instant> finishedAt, String outcome, Optional<Long> items,
                          Optional<RunCounts> counts, Optional<String> error) {}
