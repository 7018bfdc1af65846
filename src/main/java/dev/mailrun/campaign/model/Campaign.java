package dev.mailrun.campaign.model;

import java.time.Instant;
import java.util.Optional;

/**
 * A campaign row as read.
 *
 * @param windows  when it may send; empty: any time
 * @param expireAt when what it has not sent expires; empty: never
 * @param headers  the operator's own headers every message carries
 * @param webVersion what its web version pages show; empty: as webversion.personal says
 */
public record Campaign(long id, String name, String template, String fromAddress, Optional<String> fromName,
                       Optional<String> replyTo, Optional<String> subjectOverride, CampaignStatus status,
                       Optional<Instant> startAt, Optional<Double> rateCap, Optional<String> pauseReason,
                       Optional<Long> taskId, Instant createdAt, Instant updatedAt, Optional<SendWindows> windows,
                       Optional<Instant> expireAt, CustomHeaders headers, Optional<WebVersionMode> webVersion) {

    /** Following webversion.personal for its web version pages. */
    public Campaign(long id, String name, String template, String fromAddress, Optional<String> fromName,
                    Optional<String> replyTo, Optional<String> subjectOverride, CampaignStatus status,
                    Optional<Instant> startAt, Optional<Double> rateCap, Optional<String> pauseReason,
                    Optional<Long> taskId, Instant createdAt, Instant updatedAt, Optional<SendWindows> windows,
                    Optional<Instant> expireAt, CustomHeaders headers) {
        this(id, name, template, fromAddress, fromName, replyTo, subjectOverride, status, startAt, rateCap, pauseReason,
                taskId, createdAt, updatedAt, windows, expireAt, headers, Optional.empty());
    }

    /** Without headers of the operator's own. */
    public Campaign(long id, String name, String template, String fromAddress, Optional<String> fromName,
                    Optional<String> replyTo, Optional<String> subjectOverride, CampaignStatus status,
                    Optional<Instant> startAt, Optional<Double> rateCap, Optional<String> pauseReason,
                    Optional<Long> taskId, Instant createdAt, Instant updatedAt, Optional<SendWindows> windows,
                    Optional<Instant> expireAt) {
        this(id, name, template, fromAddress, fromName, replyTo, subjectOverride, status, startAt, rateCap, pauseReason,
                taskId, createdAt, updatedAt, windows, expireAt, CustomHeaders.NONE);
    }

    /** A campaign that may send any time and never expires. */
    public Campaign(long id, String name, String template, String fromAddress, Optional<String> fromName,
                    Optional<String> replyTo, Optional<String> subjectOverride, CampaignStatus status,
                    Optional<Instant> startAt, Optional<Double> rateCap, Optional<String> pauseReason,
                    Optional<Long> taskId, Instant createdAt, Instant updatedAt) {
        this(id, name, template, fromAddress, fromName, replyTo, subjectOverride, status, startAt, rateCap, pauseReason,
                taskId, createdAt, updatedAt, Optional.empty(), Optional.empty());
    }

    /** The campaign as {@code v} sends it: its subject and From name where the variant sets them. */
    public Campaign as(Variant v) {
        return new Campaign(id, name, v.template().orElse(template), fromAddress, v.fromName().or(() -> fromName), replyTo,
                v.subject().or(() -> subjectOverride), status, startAt, rateCap, pauseReason, taskId, createdAt, updatedAt,
                windows, expireAt, headers, webVersion);
    }

    /** What its web version pages show: its own setting, or {@code byDefault} (webversion.personal) without one. */
    public WebVersionMode webVersionOr(WebVersionMode byDefault) {
        return webVersion.orElse(byDefault);
    }

    /** Whether its expiry has come at {@code now}. */
    public boolean expiredAt(Instant now) {
        return expireAt.map(at -> !now.isBefore(at)).orElse(false);
    }
}
