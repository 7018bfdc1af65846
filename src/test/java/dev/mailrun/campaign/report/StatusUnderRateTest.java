package dev.mailrun.campaign.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.campaign.store.RelayConnectionTable;
import dev.mailrun.campaign.store.RelayConnectionTable.PoolState;
import dev.mailrun.campaign.store.RelayShareTable;
import dev.mailrun.campaign.store.RunSecondTable;
import dev.mailrun.campaign.store.RunSecondTable.Cpu;
import dev.mailrun.campaign.store.RunSecondTable.Second;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.scheduler.TaskStore;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A running campaign that sent under 95% of its route's rate over a whole minute with recipients
 * due is never shown held back by nothing: status names what held it back — connections, round
 * trip, run boundaries, database, CPU of the worker — the largest share of the shortfall first, or
 * says that nothing measured explains it, with the figures. Sent rows, the pools' reports
 * (relay_share) and the runs' seconds (campaign_run_second) as the runs write them, in a real
 * database, on an injected clock: each case sends 400 in the minute at 8/s, 83% of the rate.
 */
class StatusUnderRateTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");
    private final SettableClock clock = new SettableClock(NOW);
    private final TaskStore tasks = new TaskStore(db.dataSource());
    private final Campaigns campaigns = new Campaigns(db.dataSource(), tasks, new TemplateLoader(Path.of("templates")), clock,
            Duration.ofSeconds(10));

    @Test
    void a_minute_at_83_percent_of_the_rate_with_recipients_due_names_the_shortfall_instead_of_nothing() throws Exception {
        Relays relays = StatusHoldsTest.relays(Map.of("ua", 8.0), "ua");
        CampaignReports reports = new CampaignReports(db.dataSource(), tasks, clock, SendSettingsFixtures.defaults(), relays);
        long id = running("Slow", "ua", 2_000);
        StatusHoldsTest.sent(db, id, 0, 60, NOW.minusSeconds(65));
        StatusHoldsTest.sent(db, id, 60, 400, NOW.minusSeconds(30));

        CampaignReport r = reports.report(id);

        assertThat(r.currentRate()).hasValue(400 / 60.0);
        assertThat(r.heldBackBy()).singleElement().asString()
                .startsWith("sending at 6.7/s, 83% of 8/s over the last minute; no limit explains it")
                .endsWith("no sending run reports its connections");
    }

    @Test
    void at_the_rate_or_in_a_first_minute_nothing_is_named() throws Exception {
        Relays relays = StatusHoldsTest.relays(Map.of("ub", 8.0), "ub");
        CampaignReports reports = new CampaignReports(db.dataSource(), tasks, clock, SendSettingsFixtures.defaults(), relays);
        long full = running("At rate", "ub", 2_000);
        StatusHoldsTest.sent(db, full, 0, 60, NOW.minusSeconds(65));
        StatusHoldsTest.sent(db, full, 60, 470, NOW.minusSeconds(30));
        long starting = running("Just started", "ub", 2_000);
        StatusHoldsTest.sent(db, starting, 0, 100, NOW.minusSeconds(20));

        assertThat(reports.report(full).heldBackBy()).as("470 a minute is 98% of 8/s").isEmpty();
        assertThat(reports.report(starting).heldBackBy()).as("sending began 20 s ago").isEmpty();
    }

    private long running(String name, String route, int recipients) throws Exception {
        long id = campaigns.create(new NewCampaign(name, "welcome", "news@sender.example", Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()), Optional.of(RelayRoute.parse(route)));
        CampaignFixtures.recipients(db.dataSource(), id, recipients);
        assertThat(campaigns.start(id)).isEqualTo(CampaignStatus.RUNNING);
        return id;
    }

    private static final String PACE = " — sending at 6.7/s, 83% of 8/s over the last minute";
    /** 4 connections at 300 ms a message carry 13.3/s: more than the 8/s of the rate. */
    private static final PoolState ENOUGH = new PoolState(4, 4, Optional.of(4), 32, Optional.of(300), 8);
    private static final Cpu IDLE = new Cpu(Optional.of(0.05), Optional.of(0.2), Optional.of(0.3), 2);

    @Test
    void connections_fewer_than_needed_while_more_are_allowed_are_named_with_the_open_the_needed_and_the_time() throws Exception {
        long id = underRate("uc", new PoolState(2, 2, Optional.of(5), 8, Optional.of(300), 8));
        seconds(id, 60, 0, 1000, 0, IDLE);

        assertThat(report("uc", id)).containsExactly("connections: 2 open of 5 needed at 300 ms a message" + PACE);
    }

    @Test
    void connections_at_the_most_allowed_that_carry_less_than_the_rate_name_the_round_trip() throws Exception {
        long id = underRate("ur", new PoolState(4, 4, Optional.of(7), 4, Optional.of(600), 8));
        seconds(id, 60, 0, 1000, 0, IDLE);

        assertThat(report("ur", id)).containsExactly(
                "round trip: 600 ms a message over 4 connections (the most allowed) carries at most 6.67/s" + PACE);
    }

    @Test
    void sending_that_waited_on_the_database_names_the_database_with_the_time_it_waited() throws Exception {
        long id = underRate("ud", ENOUGH);
        seconds(id, 60, 50, 1000, 0, IDLE);
        seconds(id, 50, 40, 1000, 1000, IDLE);
        seconds(id, 40, 2, 1000, 0, IDLE);
        // The run sends on: its last two seconds are not all written yet, which is no gap.
        seconds(id, 2, 1, 300, 0, IDLE);

        assertThat(report("ud", id)).containsExactly("database: sending waited 10.0 s of the minute on it "
                + "(claiming the next batch, marking recipients in flight)" + PACE);
    }

    @Test
    void a_worker_whose_cpu_was_busy_names_its_load_and_when_it_was_read() throws Exception {
        long id = underRate("uu", ENOUGH);
        seconds(id, 60, 0, 1000, 0, new Cpu(Optional.of(0.6), Optional.of(0.97), Optional.of(3.5), 2));

        assertThat(report("uu", id)).containsExactly("CPU of the worker: load average 3.5 on 2 cores, host CPU 97%, "
                + "mailrun's process 60% (read at 2026-11-23T09:59:59Z)" + PACE);
    }

    @Test
    void time_between_runs_names_the_run_boundaries_with_the_gap() throws Exception {
        long id = underRate("ug", ENOUGH);
        seconds(id, 60, 40, 1000, 0, IDLE);
        seconds(id, 30, 0, 1000, 0, IDLE);

        assertThat(report("ug", id)).containsExactly("run boundaries: 10.0 s of the minute between one run's last "
                + "message and the next one's first" + PACE);
    }

    @Test
    void several_causes_are_named_the_largest_share_of_the_shortfall_first_the_cpu_with_what_the_others_leave() throws Exception {
        long id = underRate("us", ENOUGH);
        Cpu busy = new Cpu(Optional.empty(), Optional.empty(), Optional.of(2.4), 2);
        seconds(id, 60, 57, 0, 0, busy);
        seconds(id, 57, 51, 1000, 1000, busy);
        seconds(id, 51, 0, 1000, 0, busy);

        assertThat(report("us", id)).containsExactly("database: sending waited 6.0 s of the minute on it (claiming the "
                + "next batch, marking recipients in flight); also run boundaries: 3.0 s of the minute between one run's "
                + "last message and the next one's first; also CPU of the worker: load average 2.4 on 2 cores "
                + "(read at 2026-11-23T09:59:59Z)" + PACE);
    }

    @Test
    void with_nothing_measured_to_explain_it_the_line_says_so_with_the_runs_and_the_relays_figures() throws Exception {
        long id = underRate("un", ENOUGH);
        seconds(id, 60, 0, 1000, 0, IDLE);
        seconds(id, 30, 29, 0, 400, IDLE);

        assertThat(report("un", id)).containsExactly("sending at 6.7/s, 83% of 8/s over the last minute; no limit "
                + "explains it (nothing measured accounts for it): the runs sent through 60.0 s of the minute and waited "
                + "0.4 s of it on the database; CPU load average 0.3 on 2 cores, host CPU 20%, mailrun's process 5% "
                + "(read at 2026-11-23T09:59:59Z); relay un: 4 connection(s) open of 4 wanted, 300 ms a message");
    }

    /** A running campaign through {@code relay} at 8/s, 60 sent before the minute and 400 in it, its pools as {@code pool}. */
    private long underRate(String relay, PoolState pool) throws Exception {
        long id = running("Under " + relay, relay, 2_000);
        StatusHoldsTest.sent(db, id, 0, 60, NOW.minusSeconds(65));
        StatusHoldsTest.sent(db, id, 60, 400, NOW.minusSeconds(30));
        Transactions.inTransaction(db.dataSource(), c -> {
            new RelayShareTable().renew(c, relay, "run-" + relay, Duration.ofSeconds(60));
            new RelayConnectionTable().report(c, relay, "run-" + relay, pool);
            return null;
        });
        return id;
    }

    private List<String> report(String relay, long id) throws Exception {
        try {
            return new CampaignReports(db.dataSource(), tasks, clock, SendSettingsFixtures.defaults(),
                    StatusHoldsTest.relays(Map.of(relay, 8.0), relay)).report(id).heldBackBy();
        } finally {
            Transactions.inTransaction(db.dataSource(), c -> {
                new RelayShareTable().releaseAll(c, List.of(relay), "run-" + relay);
                return null;
            });
        }
    }

    /** The seconds from {@code from} to {@code to} seconds before now, each as a run writes it, read at {@code cpu}. */
    private static void seconds(long id, int from, int to, int sendingMs, int dbWaitMs, Cpu cpu) throws Exception {
        List<Second> rows = new ArrayList<>();
        for (int ago = from; ago > to; ago--) {
            rows.add(new Second(NOW.minusSeconds(ago), sendingMs, dbWaitMs, Optional.of(cpu)));
        }
        Transactions.inTransaction(db.dataSource(), c -> {
            new RunSecondTable().add(c, id, rows);
            return null;
        });
    }
}
