package dev.mailrun.campaign.model;

import java.time.Instant;
import java.util.Optional;

/** A campaign row as read. */
public record Campaign(long id, String name, String template, String fromAddress, Optional<String> fromName,
                       Optional<String> replyTo, Optional<String> subjectOverride, CampaignStatus status,
                       Optional<Instant> startAt, Optional<Double> rateCap, Optional<String> pauseReason,
                       Optional<Long> taskId, Instant createdAt, Instant updatedAt) {}
