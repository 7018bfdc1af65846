package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.report.CampaignReport;
import dev.mailrun.campaign.report.CampaignReports;
import dev.mailrun.campaign.send.route.RelayFingerprint;
import dev.mailrun.campaign.send.route.Relay;
import dev.mailrun.campaign.send.route.RelayHealth;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.campaign.send.scope.SendSettings;
import dev.mailrun.campaign.store.RelayStateTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.smtp.TlsMode;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.scheduler.HandlerRegistry;
import dev.mailrun.scheduler.RunOutcome;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.scheduler.SchedulerConfig;
import dev.mailrun.scheduler.TaskRun;
import dev.mailrun.scheduler.TaskStore;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.ReopenablePorts;
import dev.mailrun.testing.SendDependenciesFixtures;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.TestTiming;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/**
 * Relays that were down and come back, with the real scheduler, sending task and database and a
 * real SMTP server started, on a port where nothing listened, only once the relay was marked down.
 * The clock stands still during a run and moves 10 s between ticks, so back-offs pass without
 * waiting; nothing but ticks happens between the relay's failure and the campaign's completion.
 */
class RelayComesBackTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
    /** How long a relay marked down stays down the first time (30 s, doubling each time after: route.BackOff). */
    private static final Duration FIRST_BACK_OFF = Duration.ofSeconds(30);
    private static final Duration SECOND_BACK_OFF = Duration.ofSeconds(60);

    @Test
    void the_only_relay_unreachable_at_start_and_listening_45_s_later_gets_everyone_exactly_once_by_ticks_alone()
            throws Exception {
        int port = freePort();
        ScriptedSmtpServer server = null;
        try (Stack s = new Stack(relays(Map.of("solo", port))); Logged logged = new Logged()) {
            long id = s.campaign("solo", 400);

            s.scheduler.tick();

            // A route of one relay: nothing about "the next relay of the route".
            assertThat(logged.lines()).anySatisfy(l -> assertThat(l).startsWith("Relay solo is down until "
                    + T0.plus(FIRST_BACK_OFF)).endsWith("; nothing is sent through it until a probe message gets through after the back-off"));
            assertThat(logged.lines()).anySatisfy(l -> assertThat(l)
                    .startsWith("Campaign " + id + ": no relay of its route can take messages now. solo down until ")
                    .endsWith(". Nobody was charged an attempt; a later run sends again once a relay is probed back"));
            assertThat(logged.lines()).noneSatisfy(l -> assertThat(l).contains("the relay is unreachable"));

            assertThat(count(id, "sent")).isZero();
            assertThat(count(id, "pending")).isEqualTo(400);
            assertThat(relayState("solo").downUntil()).hasValue(T0.plus(FIRST_BACK_OFF));
            TaskRun first = lastRun(s, id);
            // Not a plain success that stopped for no stated reason: the relay, until when and why.
            assertThat(first.summary().get().get("end").asText()).isEqualTo("relays_down");
            // Nothing could be sent: no success, though no failure to back off from either.
            assertThat(first.outcome()).isEqualTo(RunOutcome.BLOCKED);
            // What it claimed went back untried; none of it counts as tried.
            assertThat(first.items()).hasValue(0L);
            CampaignReport.RunLine line = s.reports.report(id).runs().get(0);
            assertThat(line.outcome()).isEqualTo("blocked");
            assertThat(line.items()).isZero();
            assertThat(line.counts()).hasValueSatisfying(c -> {
                assertThat(c.sent() + c.failed() + c.deferred() + c.suppressed()).isZero();
                assertThat(c.handedBack()).isPositive().isGreaterThanOrEqualTo(first.summary().get().get("claimed").asLong());
            });
            assertThat(first.summary().get().get("relay_unreachable").asText())
                    .startsWith("solo down until " + T0.plus(FIRST_BACK_OFF) + " (cannot be reached: cannot connect to 127.0.0.1:"
                            + port + ": ");
            assertThat(s.relayLine(id).state()).isEqualTo("down until " + T0.plus(FIRST_BACK_OFF));
            // Once the back-off has passed, status no longer calls it down: its probe is due.
            s.clock.set(T0.plus(FIRST_BACK_OFF).plusSeconds(1));
            assertThat(s.relayLine(id).state()).isEqualTo("probe due (back-off ended " + T0.plus(FIRST_BACK_OFF) + ")");
            assertThat(s.relayLine(id).stateName()).isEqualTo("probe_due");
            s.clock.set(T0);

            Instant upAt = T0.plusSeconds(45);
            for (int i = 0; i < 60 && s.campaigns.get(id).status() != CampaignStatus.COMPLETED; i++) {
                s.clock.set(s.clock.instant().plus(INTERVAL));
                if (server == null && !s.clock.instant().isBefore(upAt)) {
                    server = ScriptedSmtpServer.builder().port(port).start();
                }
                s.scheduler.tick();
            }

            assertThat(s.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);
            Map<String, Integer> to = PacingFixtures.addressees(server);
            assertThat(to).hasSize(400);
            assertThat(to.values()).as("nobody mailed twice").containsOnly(1);
            assertThat(count(id, "sent")).isEqualTo(400);
            assertThat(count(id, "unknown") + count(id, "failed") + count(id, "retry")).isZero();
            RelayStateTable.State state = relayState("solo");
            assertThat(state.downUntil()).isEmpty();
            assertThat(state.downs()).isZero();
            // Probed at 30 s (still nothing there: down again for 60 s), back with the probe at 90 s.
            assertThat(s.clock.instant()).isEqualTo(T0.plus(FIRST_BACK_OFF).plus(SECOND_BACK_OFF));
            assertThat(lastRun(s, id).summary().get().get("end").asText()).isEqualTo("completed");
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }

    @Test
    void two_relays_both_down_and_one_comes_back_takes_the_traffic() throws Exception {
        int deadPort = freePort();
        int livePort = freePort();
        ScriptedSmtpServer server = null;
        try (Stack s = new Stack(relays(Map.of("left", deadPort, "right", livePort))); Logged logged = new Logged()) {
            long id = s.campaign("left:50,right:50", 300);

            s.scheduler.tick();

            // The lanes send side by side: whichever went down first hands its recipients to the other,
            // unless the other was marked down in the same instant; either way both are logged down.
            assertThat(logged.lines()).anySatisfy(l -> assertThat(l).matches("Relay left is down until .*; "
                    + "(its recipients go through relay right meanwhile|no relay of the route is up: .*)"));
            assertThat(logged.lines()).anySatisfy(l -> assertThat(l).matches("Relay right is down until .*; "
                    + "(its recipients go through relay left meanwhile|no relay of the route is up: .*)"));
            assertThat(logged.lines()).anySatisfy(l -> assertThat(l).matches("Relay (left|right) is down until .*; "
                    + "no relay of the route is up: nothing is sent until a probe message gets through after a back-off"));
            assertThat(logged.lines()).anySatisfy(l -> assertThat(l).matches(
                    "Campaign \\d+: no relay of its route can take messages now\\. left down until [^;]+; right down until [^;]+\\. Nobody .*"));

            assertThat(count(id, "sent")).isZero();
            assertThat(relayState("left").downUntil()).isPresent();
            assertThat(relayState("right").downUntil()).isPresent();
            assertThat(lastRun(s, id).summary().get().get("relay_unreachable").asText())
                    .contains("left down until").contains("right down until");

            server = ScriptedSmtpServer.builder().port(livePort).start();
            for (int i = 0; i < 30 && s.campaigns.get(id).status() != CampaignStatus.COMPLETED; i++) {
                s.clock.set(s.clock.instant().plus(INTERVAL));
                s.scheduler.tick();
            }

            assertThat(s.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);
            Map<String, Integer> to = PacingFixtures.addressees(server);
            assertThat(to).hasSize(300);
            assertThat(to.values()).containsOnly(1);
            assertThat(count(id, "sent")).isEqualTo(300);
            assertThat(relayState("right").downUntil()).isEmpty();
            // The other one was probed too and is still down, with a longer back-off.
            assertThat(relayState("left").downUntil()).isPresent();
            assertThat(relayState("left").downs()).isEqualTo(2);
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }

    @Test
    void a_relay_re_pointed_to_a_live_port_starts_fresh_without_waiting_for_its_back_off() throws Exception {
        int deadPort = freePort();
        long id;
        try (Stack s = new Stack(relays(Map.of("moved", deadPort)))) {
            id = s.campaign("moved", 120);
            s.scheduler.tick();
            assertThat(relayState("moved").downUntil()).hasValue(T0.plus(FIRST_BACK_OFF));
            assertThat(relayState("moved").reason()).get().asString().contains(String.valueOf(deadPort));
        }
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder().start();
             // The worker restarted with the relay on another port, well within the old back-off.
             Stack s = new Stack(relays(Map.of("moved", server.port())))) {
            s.clock.set(T0.plus(INTERVAL));

            s.scheduler.tick();

            assertThat(s.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);
            assertThat(PacingFixtures.addressees(server)).hasSize(120);
            // The new address has no mark; the old one's stays with the old configuration, read by nobody here.
            RelayStateTable.State state = Transactions.inTransaction(db.dataSource(), c -> new RelayStateTable().read(c,
                    Map.of("moved", RelayFingerprint.of(relays(Map.of("moved", server.port())).first().smtp()))).get("moved"));
            assertThat(state.downUntil()).isEmpty();
            assertThat(state.reason()).isEmpty();
            assertThat(state.downs()).isZero();
        }
    }

    @Test
    void a_route_whose_relay_left_the_configuration_pauses_naming_the_route_with_the_weights_status_shows() throws Exception {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder().start()) {
            long id;
            try (Stack s = new Stack(relays(Map.of("gone", server.port())))) {
                id = s.campaign("gone", 5);
                assertThat(s.relayLine(id).weight()).hasValue(1);
            }
            try (Stack s = new Stack(relays(Map.of("kept", server.port())))) {
                s.scheduler.tick();

                assertThat(s.campaigns.get(id).status()).isEqualTo(CampaignStatus.PAUSED);
                assertThat(s.campaigns.get(id).pauseReason()).hasValue(
                        "its relay route gone:1 cannot be used: relay 'gone': not configured (configured: kept)");
                assertThat(s.relayLine(id).weight()).hasValue(1);
                assertThat(server.messages()).isEmpty();
            }
        }
    }

    /** The lines the relay health and the run summary log while open. */
    private static final class Logged implements AutoCloseable {
        private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
        private final List<Logger> loggers = List.of((Logger) LoggerFactory.getLogger(RelayHealth.class),
                (Logger) LoggerFactory.getLogger(RunSummary.class));

        Logged() {
            appender.start();
            loggers.forEach(l -> l.addAppender(appender));
        }

        List<String> lines() {
            return appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        }

        @Override
        public void close() {
            loggers.forEach(l -> l.detachAppender(appender));
        }
    }

    /** Relays on loopback ports, in the order given (sorted by name for a stable route). */
    private static Relays relays(Map<String, Integer> ports) {
        Map<String, Relay> byName = new LinkedHashMap<>();
        ports.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> byName.put(e.getKey(),
                new Relay(e.getKey(), SmtpSettings.of("127.0.0.1", e.getValue(), TlsMode.NONE, "mailrun.test")
                        .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(5))
                        .withConnections(4))));
        return new Relays(byName, RelayRoute.parse(String.join(",", byName.keySet())));
    }

    /** A loopback port nothing listens on (until a test starts a server there), outside the ephemeral range. */
    private static int freePort() throws IOException {
        return ReopenablePorts.free();
    }

    /** The real sending stack on a clock that stands still until the test moves it. */
    private static final class Stack implements AutoCloseable {
        final SettableClock clock = new SettableClock(T0);
        final TaskStore tasks = new TaskStore(db.dataSource());
        final Campaigns campaigns;
        final Scheduler scheduler;
        final CampaignReports reports;

        Stack(Relays relays) {
            TemplateLoader templates = new TemplateLoader(Path.of("templates"));
            SendSettings settings = SendSettingsFixtures.builder().batchMax(100).retries(5, Duration.ofSeconds(1)).build();
            SendTask task = new SendTask(SendDependenciesFixtures.relays(db.dataSource(), templates, settings,
                    TestTiming.realTime(clock), relays));
            campaigns = new Campaigns(db.dataSource(), tasks, templates, clock, INTERVAL);
            scheduler = new Scheduler(db.dataSource(), HandlerRegistry.of(task), SchedulerConfig.defaults("w1"), clock);
            reports = new CampaignReports(db.dataSource(), tasks, clock, settings, relays);
        }

        CampaignReport.RelayLine relayLine(long id) throws Exception {
            return reports.report(id).relays().get(0);
        }

        long campaign(String route, int recipients) throws Exception {
            long id = campaigns.create(new NewCampaign("Comes back " + route, "welcome", "news@sender.example",
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()),
                    Optional.of(RelayRoute.parse(route)));
            CampaignFixtures.recipients(db.dataSource(), id, recipients);
            campaigns.start(id);
            return id;
        }

        @Override
        public void close() {
            scheduler.close();
        }
    }

    private static TaskRun lastRun(Stack s, long id) throws Exception {
        List<TaskRun> runs = s.tasks.recentRuns(SendTask.taskName(id), 1);
        assertThat(runs).hasSize(1);
        return runs.get(0);
    }

    private static long count(long campaignId, String status) throws Exception {
        return CampaignFixtures.recipientCount(db.dataSource(), campaignId, status);
    }

    private static RelayStateTable.State relayState(String relay) throws Exception {
        return Transactions.inTransaction(db.dataSource(), c -> new RelayStateTable().readAll(c, List.of(relay)).stream().findFirst()
                .orElse(RelayStateTable.State.up(relay)));
    }
}
