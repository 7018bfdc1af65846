package dev.mailrun.fault;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.model.AbTest;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.PickBy;
import dev.mailrun.campaign.model.Variant;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.mail.ScriptedSmtpServer.Reply;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.scheduler.TaskStore;
import dev.mailrun.testing.TestDatabase;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kill -9 of a real worker JVM while an A/B campaign sends its test share, a restart, the pick and a
 * clean finish: nobody is mailed twice, nobody gets a variant other than the one stored with them,
 * only the test share goes out before the pick, and the rest get only the winner.
 */
class AbKillNineTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Pattern SUBJECT = Pattern.compile("^Subject: (.*?)\\r?$", Pattern.MULTILINE);
    private static final List<String> SUBJECTS = List.of("Spring sale", "20% off everything");

    @Test
    void a_kill_in_the_test_phase_mails_nobody_twice_nor_two_variants_and_the_rest_get_the_winner() throws Exception {
        long seed = Long.getLong("mailrun.fault.seed", 20261126L);
        Random random = new Random(seed);
        AtomicInteger accepted = new AtomicInteger();
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder()
                .onMessage(cmd -> {
                    if (!Fixtures.isComplete(cmd.argument())) {
                        return Reply.drop();   // content cut off by the kill; a real server discards it
                    }
                    accepted.incrementAndGet();
                    return Reply.of(250, "2.0.0 queued").after(Duration.ofMillis(5));
                })
                .start()) {
            Campaigns campaigns = new Campaigns(db.dataSource(), new TaskStore(db.dataSource()),
                    new TemplateLoader(Path.of("templates")), Clock.systemUTC(), Duration.ofSeconds(3));
            long id = campaigns.create(new NewCampaign("Kill A/B", "welcome", "news@sender.example", Optional.empty(),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()), Optional.empty(), List.of(),
                    Optional.empty(), Optional.of(new AbTest(List.of(Variant.parse("A:subject=" + SUBJECTS.get(0)),
                            Variant.parse("B:subject=" + SUBJECTS.get(1))), 20, Optional.empty(), PickBy.MANUAL)));
            Fixtures.recipients(db.dataSource(), id, 0, 1000);
            campaigns.start(id);
            Map<String, String> env = new HashMap<>(WorkerProcess.env(db, smtp.port(), "0"));
            env.put("MAILRUN_TICK_LEASE", "6s");
            env.put("MAILRUN_TICK_HEARTBEAT", "1s");

            int target = 20 + random.nextInt(120);
            try (WorkerProcess worker = WorkerProcess.start("ab-kill", env)) {
                KillNineTest.waitFor(() -> accepted.get() >= target || !worker.isAlive(), Duration.ofSeconds(90));
                assertThat(worker.isAlive()).as("worker died by itself, see %s", worker.log).isTrue();
                worker.kill9();
            }
            // The kill is what is under test, not the minute until the dead run's relay shares expire.
            Fixtures.expireRelayShares(db.dataSource());
            int killedAt = accepted.get();
            long leftInFlight = Fixtures.settledSendingCount(db.dataSource(), id);
            try (WorkerProcess worker = WorkerProcess.start("ab-kill-restart", env)) {
                KillNineTest.waitFor(() -> campaigns.abTest(id).orElseThrow().testDoneAt().isPresent() || !worker.isAlive(),
                        Duration.ofSeconds(120));
                assertThat(worker.isAlive()).as("see %s", worker.log).isTrue();
                Map<String, Long> beforePick = Fixtures.counts(db.dataSource(), id);
                // Only the test share went out before the pick.
                assertThat(beforePick.getOrDefault("pending", 0L)).isEqualTo(800);
                assertThat(smtp.messages()).hasSizeLessThanOrEqualTo(200);
                campaigns.pick(id, "B");
                KillNineTest.waitFor(() -> "completed".equals(Fixtures.campaignStatus(db.dataSource(), id)) || !worker.isAlive(),
                        Duration.ofSeconds(180));
                assertThat(worker.stop()).as("worker stops on SIGTERM").isTrue();
            }

            Map<String, Integer> variantOf = variants(id);
            Map<String, Integer> received = Fixtures.perAddress(smtp.messages());
            Map<String, Long> counts = Fixtures.counts(db.dataSource(), id);
            System.out.printf("[fault] ab-kill seed=%d killedAtMessage=%d inFlightAtKill=%d counts=%s messages=%d%n", seed,
                    killedAt, leftInFlight, counts, smtp.messages().size());
            assertThat(Fixtures.campaignStatus(db.dataSource(), id)).isEqualTo("completed");
            assertThat(received.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).toList())
                    .as("seed %d: addresses mailed more than once", seed).isEmpty();
            for (String m : smtp.messages()) {
                String address = Fixtures.recipientOf(m);
                assertThat(subject(m)).as("seed %d: %s", seed, address).isEqualTo(SUBJECTS.get(variantOf.get(address)));
            }
            assertThat(counts.getOrDefault("unknown", 0L)).isEqualTo(leftInFlight);
            assertThat(variantOf.values().stream().filter(v -> v == 1).count()).isEqualTo(100 + 800);
        }
    }

    private static String subject(String message) {
        Matcher m = SUBJECT.matcher(message);
        return m.find() ? m.group(1) : "?";
    }

    private static Map<String, Integer> variants(long id) throws Exception {
        Map<String, Integer> out = new HashMap<>();
        try (var c = db.dataSource().getConnection(); var ps = c.prepareStatement(
                "SELECT email, variant FROM recipient WHERE campaign_id = ?")) {
            ps.setLong(1, id);
            try (var rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getInt(2));
                }
            }
        }
        return out;
    }
}
