package dev.mailrun.campaign;

import dev.mailrun.campaign.model.BounceRate;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.ErrorCount;
import dev.mailrun.campaign.model.RecipientStatus;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.send.RelayRate;
import dev.mailrun.campaign.send.policy.SendCalendar;
import dev.mailrun.campaign.store.RelayStateTable;
import dev.mailrun.campaign.send.SendSettings;
import dev.mailrun.campaign.send.SendTask;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.InFlightTable;
import dev.mailrun.campaign.store.RecipientTable;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.scheduler.Task;
import dev.mailrun.scheduler.TaskRun;
import dev.mailrun.scheduler.TaskStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
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

    private final DataSource dataSource;
    private final TaskStore tasks;
    private final Clock clock;
    private final SendSettings settings;
    private final SendCalendar calendar;
    private final RelayRoute defaultRoute;
    private final RelayStateTable relayStates = new RelayStateTable();
    private final CampaignTable campaigns = new CampaignTable();
    private final RecipientTable queue = new RecipientTable(new SuppressionTable());
    private final InFlightTable inFlight = new InFlightTable();

    /**
     * @param settings the sending task's settings: the rate a campaign is configured for and the
     *                 hard-bounce threshold ({@code bounce.pause-rate}) shown next to its rate come from them
     */
    public CampaignReports(DataSource dataSource, TaskStore tasks, Clock clock, SendSettings settings) {
        this(dataSource, tasks, clock, settings, RelayRoute.of(RelayRoute.NAME.matcher(settings.relay()).matches()
                ? settings.relay() : "default"));
    }

    /** @param defaultRoute the route of campaigns created without {@code --relay} */
    public CampaignReports(DataSource dataSource, TaskStore tasks, Clock clock, SendSettings settings,
                           RelayRoute defaultRoute) {
        this.dataSource = dataSource;
        this.tasks = tasks;
        this.clock = clock;
        this.settings = settings;
        this.calendar = new SendCalendar(settings.dailyCap());
        this.defaultRoute = defaultRoute;
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

    public CampaignReport report(long campaignId) throws SQLException {
        Campaign campaign;
        Map<RecipientStatus, Long> counts;
        List<ErrorCount> errors;
        BounceRate bounces;
        List<String> heldBackBy;
        List<CampaignReport.RelayLine> relays;
        try (Connection c = dataSource.getConnection()) {
            campaign = campaigns.find(c, campaignId).orElseThrow(() -> new CampaignException("no campaign with id " + campaignId));
            counts = queue.counts(c, campaignId, inFlight.ids(c, campaignId));
            errors = queue.topErrors(c, campaignId, 5);
            bounces = queue.hardBounceRate(c, campaignId);
            heldBackBy = new ArrayList<>(campaign.status().isFinal() ? List.of() : calendar.heldBackBy(c, campaign,
                    campaigns.route(c, campaignId).orElse(defaultRoute), clock.instant()));
            heldBackBy.addAll(new HeldBack(settings).of(c, campaign,
                    counts.get(RecipientStatus.PENDING) + counts.get(RecipientStatus.RETRY), queue));
            relays = relays(c, campaignId);
        }
        String taskName = SendTask.taskName(campaignId);
        List<TaskRun> rows = tasks.recentRuns(taskName, RUNS_FOR_RATE);
        Optional<Duration> slotLength = rows.isEmpty() ? Optional.empty() : tasks.find(taskName).map(Task::interval);
        List<CampaignReport.RunLine> runs = new ArrayList<>();
        List<CampaignReport.RunLine> history = new ArrayList<>();
        double busySeconds = 0;
        long itemsTotal = 0;
        Optional<Double> current = Optional.empty();
        double configured = RelayRate.configured(settings, campaign);
        for (TaskRun r : rows) {
            Optional<Double> share = configured > 0 && r.deadline().isPresent() && r.finishedAt().isPresent()
                    ? slotLength.map(s -> r.items().orElse(0L) / (configured * s.toMillis() / 1000.0)) : Optional.empty();
            CampaignReport.RunLine line = new CampaignReport.RunLine(r.startedAt(), r.finishedAt(), r.outcome().dbValue(),
                    r.items().orElse(0L), r.duration(), r.utilisation(), r.overrun(), r.error(), r.scheduledFor(), r.deadline(),
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
                double seconds = d.get().toMillis() / 1000.0;
                if (current.isEmpty()) {
                    current = Optional.of(items / seconds);
                }
                busySeconds += seconds;
                itemsTotal += items;
            }
        }
        Optional<Double> average = busySeconds > 0 ? Optional.of(itemsTotal / busySeconds) : Optional.empty();
        long remaining = counts.get(RecipientStatus.PENDING) + counts.get(RecipientStatus.RETRY);
        Optional<Duration> eta = configured > 0 && remaining > 0
                ? Optional.of(Duration.ofMillis((long) (remaining / configured * 1000))) : Optional.empty();
        return new CampaignReport(campaign, counts, configured, current, average, eta, runs, errors, clock.instant(),
                history, slotLength, bounces, settings.hardBounceRate(), relays, heldBackBy);
    }

    /** The relays of the campaign's route, then any other that took some of its recipients, with their states. */
    private List<CampaignReport.RelayLine> relays(Connection c, long campaignId) throws SQLException {
        RelayRoute route = campaigns.route(c, campaignId).orElse(defaultRoute);
        Map<String, RecipientTable.RelayCount> counts = new LinkedHashMap<>();
        queue.relayCounts(c, campaignId).forEach(rc -> counts.put(rc.relay(), rc));
        List<String> names = new ArrayList<>(route.relays());
        counts.keySet().stream().filter(n -> !names.contains(n)).forEach(names::add);
        Map<String, RelayStateTable.State> states = relayStates.read(c, names);
        List<CampaignReport.RelayLine> lines = new ArrayList<>();
        for (String name : names) {
            RecipientTable.RelayCount n = counts.getOrDefault(name, new RecipientTable.RelayCount(name, 0, 0, 0));
            Optional<Integer> weight = route.legs().stream().filter(l -> l.relay().equals(name)).findFirst()
                    .map(l -> route.weights()[route.legs().indexOf(l)]);
            RelayStateTable.State st = states.get(name);
            lines.add(CampaignReport.RelayLine.of(name, weight, st, clock.instant(), n.sent(), n.failed(), n.deferred()));
        }
        return lines;
    }
}
