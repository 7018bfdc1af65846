package dev.mailrun.campaign.report;

import dev.mailrun.campaign.model.RunCounts;
import dev.mailrun.campaign.model.Attachment;
import dev.mailrun.campaign.model.BounceRate;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.ComplaintRate;
import dev.mailrun.campaign.model.ErrorCount;
import dev.mailrun.campaign.model.RecipientStatus;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.send.SendTask;
import dev.mailrun.campaign.send.pace.RelayRate;
import dev.mailrun.campaign.send.policy.SendCalendar;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.campaign.send.scope.SendSettings;
import dev.mailrun.campaign.store.AttachmentTable;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.InFlightTable;
import dev.mailrun.campaign.store.RelayStateTable;
import dev.mailrun.campaign.store.recipient.RecipientCounts;
import dev.mailrun.campaign.store.recipient.RecipientQueue;
import dev.mailrun.campaign.store.recipient.SentSecondTable;
import dev.mailrun.campaign.variant.AbReport;
import dev.mailrun.scheduler.Task;
import dev.mailrun.scheduler.TaskRun;
import dev.mailrun.scheduler.TaskStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/** Builds {@link CampaignReport}s from the recipient table and the campaign task's run history. */
public final class CampaignReports {

    private static final int RUNS_SHOWN = 10;
    private static final int RUNS_FOR_RATE = 200;
    /** "current" is the rate over this last stretch of time. */
    static final Duration CURRENT_OVER = Duration.ofMinutes(1);

    private final DataSource dataSource;
    private final TaskStore tasks;
    private final Clock clock;
    private final SendSettings settings;
    private final RelayRoute defaultRoute;
    private final Map<String, Double> rates;
    private final List<String> missingSettings;
    private final Optional<Double> complaintThreshold;
    private final CampaignOutlook outlook;
    private final AttachmentTable files = new AttachmentTable();
    private final CampaignTable campaigns = new CampaignTable();
    private final RecipientCounts recipients = new RecipientCounts();
    private final RecipientQueue queue = new RecipientQueue();
    private final InFlightTable inFlight = new InFlightTable();
    private final RelayStates relayStates;
    private final UnderRate underRate = new UnderRate();

    /**
     * @param settings the sending task's settings: the daily cap, the domain groups and the
     *                 hard-bounce threshold ({@code bounce.pause-rate}) shown next to the rate come from them
     * @param relays   the configured relays, with their rates, and the route of campaigns created without {@code --relay}
     */
    public CampaignReports(DataSource dataSource, TaskStore tasks, Clock clock, SendSettings settings, Relays relays) {
        this(dataSource, tasks, clock, settings, relays.defaultRoute(), rates(relays), RelayStates.of(relays), List.of(),
                Optional.empty());
    }

    private CampaignReports(DataSource dataSource, TaskStore tasks, Clock clock, SendSettings settings,
                            RelayRoute defaultRoute, Map<String, Double> rates, RelayStates relayStates,
                            List<String> missingSettings, Optional<Double> complaintThreshold) {
        this.dataSource = dataSource;
        this.tasks = tasks;
        this.clock = clock;
        this.settings = settings;
        this.defaultRoute = defaultRoute;
        this.rates = Map.copyOf(rates);
        this.relayStates = relayStates;
        this.missingSettings = List.copyOf(missingSettings);
        this.complaintThreshold = complaintThreshold;
        this.outlook = new CampaignOutlook(settings, this.rates, relayStates, this.missingSettings);
    }

    /**
     * The same reports, with the keys sending needs that are not configured ({@code unsubscribe.secret}):
     * each holds back every campaign that has someone left to send to.
     */
    public CampaignReports withMissingSettings(List<String> keys) {
        return new CampaignReports(dataSource, tasks, clock, settings, defaultRoute, rates, relayStates, keys, complaintThreshold);
    }

    /**
     * The same reports, with {@code bounce.complaint-pause-rate} shown next to each complaint rate
     * (the bounce settings are not the sending task's, so whoever has them says so).
     */
    public CampaignReports withComplaintThreshold(double rate) {
        return new CampaignReports(dataSource, tasks, clock, settings, defaultRoute, rates, relayStates, missingSettings,
                Optional.of(rate));
    }

    private static Map<String, Double> rates(Relays relays) {
        Map<String, Double> rates = new LinkedHashMap<>();
        relays.byName().forEach((name, relay) -> rates.put(name, relay.rate()));
        return rates;
    }

    /** Every campaign's report, oldest campaign first. */
    public List<CampaignReport> all() throws SQLException {
        List<CampaignReport> reports = new ArrayList<>();
        List<Campaign> list;
        try (Connection c = dataSource.getConnection()) {
            list = campaigns.list(c);
        }
        for (Campaign campaign : list) {
            reports.add(report(campaign.id()));
        }
        return reports;
    }

    /**
     * The ETA, unless the campaign waits for its A/B decision: the rest of the list then goes only
     * after {@code campaign pick} (a decision that falls due is not taken without it), which has no known time.
     */
    private static Eta eta(Eta outlook, Optional<AbReport> ab) {
        return ab.flatMap(AbReport::waiting).isPresent()
                ? new Eta(Optional.empty(), Optional.empty(), Optional.of("campaign pick")) : outlook;
    }

    /** What holds the campaign back, with its wait for an A/B decision first: nothing else can send it meanwhile. */
    private static List<String> heldBack(List<String> outlook, Optional<AbReport> ab) {
        if (ab.isEmpty() || ab.get().waiting().isEmpty()) {
            return outlook;
        }
        List<String> all = new ArrayList<>();
        all.add(ab.get().waiting().get());
        all.addAll(outlook);
        return all;
    }

    /**
     * Every hold, then what held a minute under the rate back when it ran under it, or else the
     * connections that cannot reach the rate now (the minute's line names them itself when they did).
     */
    private static List<String> withSlow(List<String> held, Optional<String> slow, List<String> connections) {
        List<String> all = new ArrayList<>(held);
        slow.ifPresentOrElse(all::add, () -> all.addAll(connections));
        return all;
    }

    public CampaignReport report(long campaignId) throws SQLException {
        Instant now = clock.instant();
        Campaign campaign;
        Map<RecipientStatus, Long> counts;
        List<ErrorCount> errors;
        BounceRate bounces;
        ComplaintRate complaints;
        CampaignOutlook.Result outlook;
        List<CampaignReport.RelayLine> relays;
        long sentLately;
        Duration sendingFor;
        Optional<Engagement> engagement;
        Optional<AbReport> ab;
        Optional<String> slow;
        List<Attachment.Summary> attachments;
        try (Connection c = dataSource.getConnection()) {
            campaign = campaigns.find(c, campaignId).orElseThrow(() -> new CampaignException("no campaign with id " + campaignId));
            // The kept counts, read once for the counts, the hard-bounce and complaint rates and the relay lines.
            Map<String, Map<String, Long>> kept = recipients.kept(c, campaignId);
            counts = recipients.counts(c, campaignId, kept, inFlight.ids(c, campaignId));
            errors = recipients.topErrors(c, campaignId, 5);
            bounces = recipients.hardBounceRate(c, campaignId, kept);
            complaints = recipients.complaintRate(c, campaignId, kept);
            long remaining = counts.get(RecipientStatus.PENDING) + counts.get(RecipientStatus.RETRY)
                    + counts.get(RecipientStatus.SENDING);
            RelayRoute route = campaigns.route(c, campaignId).orElse(defaultRoute);
            outlook = this.outlook.read(c, campaign, route, remaining, queue, now);
            relays = relays(c, recipients.relayCounts(kept), route);
            ab = AbReport.read(c, campaignId, now);
            attachments = files.list(c, campaignId);
            // A campaign completed before the last minute sent nothing in it: its sent rows need no reading.
            boolean completedEarlier = campaign.status() == CampaignStatus.COMPLETED
                    && campaign.updatedAt().isBefore(now.minus(CURRENT_OVER));
            sentLately = completedEarlier ? 0 : recipients.sentSince(c, campaignId, now.minus(CURRENT_OVER));
            // Sending began before the minute did when something was sent in the ten seconds before it.
            boolean fullMinute = campaign.status() == CampaignStatus.RUNNING
                    && recipients.sentSince(c, campaignId, now.minus(CURRENT_OVER).minusSeconds(10)) > sentLately;
            // A campaign that began sending within the minute (nothing sent in the seconds kept before it) is
            // measured over the time it has sent, not a whole minute: a page opened two seconds after a start
            // showed 0.2/s for 7/s otherwise.
            Instant minute = now.minus(CURRENT_OVER).truncatedTo(ChronoUnit.SECONDS);
            sendingFor = fullMinute || sentLately == 0 ? CURRENT_OVER
                    : recipients.firstSentSince(c, campaignId, now.minus(SentSecondTable.KEPT))
                            .filter(first -> !first.isBefore(minute)).map(first -> Duration.between(first, now))
                            .map(d -> d.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1)
                                    : d.compareTo(CURRENT_OVER) > 0 ? CURRENT_OVER : d)
                            .orElse(CURRENT_OVER);
            slow = underRate.read(c, campaign, route, remaining, sentLately, fullMinute, outlook.configured(),
                    heldBack(outlook.heldBackBy(), ab), now, CURRENT_OVER);
            engagement = Engagement.read(c, campaignId);
        }
        String taskName = SendTask.taskName(campaignId);
        // Idle runs (a paused campaign's ticks) did nothing: they would push the real runs out of the list.
        List<TaskRun> rows = tasks.recentWork(taskName, RUNS_FOR_RATE);
        Optional<Duration> slotLength = rows.isEmpty() ? Optional.empty() : tasks.find(taskName).map(Task::interval);
        List<CampaignReport.RunLine> runs = new ArrayList<>();
        List<CampaignReport.RunLine> history = new ArrayList<>();
        double busySeconds = 0;
        long itemsTotal = 0;
        // A run's window share is measured against what the configuration allows, whatever was down since.
        double allowed = outlook.allUp();
        for (TaskRun r : rows) {
            Optional<Double> share = allowed > 0 && r.deadline().isPresent() && r.finishedAt().isPresent()
                    ? slotLength.map(s -> r.items().orElse(0L) / (allowed * s.toMillis() / 1000.0)) : Optional.empty();
            CampaignReport.RunLine line = new CampaignReport.RunLine(r.startedAt(), r.finishedAt(), r.outcome().dbValue(),
                    r.items().orElse(0L), RunCounts.of(r.summary()), r.duration(), r.utilisation(), r.overrun(), r.error(), r.scheduledFor(), r.deadline(),
                    share, r.gap(), r.waited(), r.margin());
            if (runs.size() < RUNS_SHOWN) {
                runs.add(line);
            }
            // Only rows that held the task have a deadline; the others record a decision not to run.
            if (r.deadline().isPresent()) {
                history.add(line);
            }
            long items = r.items().orElse(0L);
            Optional<Duration> d = r.duration();
            if (items > 0 && d.isPresent() && !d.get().isZero()) {
                busySeconds += d.get().toMillis() / 1000.0;
                itemsTotal += items;
            }
        }
        Optional<Double> average = busySeconds > 0 ? Optional.of(itemsTotal / busySeconds) : Optional.empty();
        Optional<Double> current = sentLately > 0
                ? Optional.of(sentLately / (sendingFor.toMillis() / 1000.0)) : Optional.empty();
        return new CampaignReport(campaign, counts, outlook.configured(), current, average, eta(outlook.eta(), ab), runs, errors, now,
                history, slotLength, bounces, settings.hardBounceRule().pauseRate(), relays, withSlow(heldBack(outlook.heldBackBy(), ab), slow, outlook.connections()),
                engagement, ab, attachments, complaints, complaintThreshold);
    }

    /** The relays of the campaign's route, then any other that took some of its recipients, with their states. */
    private List<CampaignReport.RelayLine> relays(Connection c, List<RecipientCounts.RelayCount> relayCounts, RelayRoute route)
            throws SQLException {
        Map<String, RecipientCounts.RelayCount> counts = new LinkedHashMap<>();
        relayCounts.forEach(rc -> counts.put(rc.relay(), rc));
        List<String> names = new ArrayList<>(route.relays());
        counts.keySet().stream().filter(n -> !names.contains(n)).forEach(names::add);
        Map<String, RelayStateTable.State> states = relayStates.read(c, names);
        List<CampaignReport.RelayLine> lines = new ArrayList<>();
        for (String name : names) {
            RecipientCounts.RelayCount n = counts.getOrDefault(name, new RecipientCounts.RelayCount(name, 0, 0, 0));
            Optional<Integer> weight = route.legs().stream().filter(l -> l.relay().equals(name)).findFirst()
                    .map(l -> route.weights()[route.legs().indexOf(l)]);
            RelayStateTable.State st = states.get(name);
            lines.add(CampaignReport.RelayLine.of(name, weight, st, clock.instant(), n.sent(), n.failed(), n.deferred()));
        }
        return lines;
    }
}
