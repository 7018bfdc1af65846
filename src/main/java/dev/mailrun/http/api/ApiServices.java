package dev.mailrun.http.api;

import dev.mailrun.campaign.CampaignExport;
import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.Templates;
import dev.mailrun.campaign.TestSend;
import dev.mailrun.campaign.TrackingErasure;
import dev.mailrun.campaign.access.ApiAudit;
import dev.mailrun.campaign.access.ApiTokens;
import dev.mailrun.campaign.access.IdempotencyKeys;
import dev.mailrun.campaign.audience.Erasure;
import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.audience.SubscriberImporter;
import dev.mailrun.campaign.audience.Subscribers;
import dev.mailrun.campaign.audience.segment.Segments;
import dev.mailrun.campaign.content.TemplateStore;
import dev.mailrun.campaign.importing.RecipientImporter;
import dev.mailrun.campaign.report.CampaignReports;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.campaign.suppression.SuppressionImporter;
import dev.mailrun.campaign.suppression.SuppressionList;
import dev.mailrun.events.EventLog;
import dev.mailrun.mail.Secret;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the API works through: the operator's API in {@code campaign} (the same objects the CLI
 * commands call, and the events outbox's {@link EventLog}), the API's own tokens, audit trail and idempotency keys, and its settings.
 * The rules that depend on the configuration (what starting needs, whether tracking is on) are the
 * campaign service's: the API only translates what it refuses. A test send is made when asked for
 * ({@code testSend}): what sending needs (the unsubscribe secret) is checked then, as {@code send-test}
 * checks it, so an API that never sends a test starts without it. The audience's services (lists,
 * segments, subscribers, imports into a list) are those {@code lists}, {@code segments} and
 * {@code subscribers} call.
 */
public record ApiServices(Campaigns campaigns, CampaignReports reports, RecipientImporter importer, CampaignExport export,
                          SuppressionList suppressions, SuppressionImporter suppressionImporter, Templates templates,
                          TemplateStore templateStore, Supplier<TestSend> testSend,
                          Relays relays, EventLog events, ApiTokens tokens, ApiAudit audit, IdempotencyKeys idempotency,
                          Optional<Secret> adminToken, ApiSettings settings, Clock clock,
                          TrackingErasure trackingErasure,
                          Lists lists, Segments segments, Subscribers subscribers, SubscriberImporter subscriberImporter,
                          Erasure erasure) {}
