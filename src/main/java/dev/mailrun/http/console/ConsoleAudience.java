package dev.mailrun.http.console;

import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.audience.SubscriberImporter;
import dev.mailrun.campaign.audience.Subscribers;
import dev.mailrun.campaign.audience.segment.Segments;

/**
 * What the console's audience pages work through (docs/AUDIENCE.md): the lists, the subscribers one at
 * a time, the import into a list, and the segments — the objects the {@code lists}, {@code subscribers}
 * and {@code segments} commands call, so every rule is theirs.
 */
public record ConsoleAudience(Lists lists, Subscribers subscribers, SubscriberImporter importer, Segments segments) {}
