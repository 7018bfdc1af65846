package dev.mailrun.campaign.model;

import java.time.Instant;
import java.util.Optional;

/**
 * One open or click as stored: no address, no IP, no user agent.
 *
 * @param recipientId empty when tracking.per-recipient is off
 * @param linkIndex   the link of a click; -1 for an open
 * @param family      a coarse client family (apple-proxy, google-proxy, browser, …), when known
 */
public record TrackingEvent(long campaignId, Optional<Long> recipientId, boolean click, int linkIndex,
                            TrackingClass trackingClass, Optional<String> family, Instant at) {}
