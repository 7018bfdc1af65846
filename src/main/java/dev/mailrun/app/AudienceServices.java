package dev.mailrun.app;

import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.audience.SubscriberImporter;
import dev.mailrun.campaign.audience.Subscribers;
import dev.mailrun.campaign.audience.segment.Segments;

/**
 * The audience's services over one configuration and database (docs/AUDIENCE.md), built anew on each
 * call of {@link Services#audience()}: none holds state of its own.
 *
 * @param lists       the lists
 * @param segments    saved filters over the subscribers, their counts and previews
 * @param subscribers subscribers one at a time; an address added passes the recipient import's address filter
 * @param importer    imports into a list, with the recipient import's row limits and address filter
 */
public record AudienceServices(Lists lists, Segments segments, Subscribers subscribers, SubscriberImporter importer) {}
