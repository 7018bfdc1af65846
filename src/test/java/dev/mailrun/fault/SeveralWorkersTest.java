package dev.mailrun.fault;

import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.mail.ScriptedSmtpServer.Reply;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.mail.dkim.RelaxedDkimVerifier;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.scheduler.TaskStore;
import dev.mailrun.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static dev.mailrun.fault.KillNineTest.waitFor;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several real worker processes ticking against one database and one relay: runs of a task never
 * overlap, nobody is mailed twice, and the relay's rate holds in total. Each worker has its own
 * templates.dir — missing on one, holding other text on the next — and every message is rendered from
 * the campaign's pinned version all the same, DKIM-signed.
 */
class SeveralWorkersTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final int RATE = 50;
    /**
     * Messages over {@code RATE × 1.1} allowed in one second: each run's limiter starts with one
     * permit free, and a run keeps its old share until its next batch renews it (the limiter is
     * rebuilt then, which may pass one more), so for two live runs a few extra messages can go out
     * when one joins or leaves.
     */
    private static final int BURST = 5;

    @TempDir
    static Path dirs;

    /** One scenario for every property: two workers on two campaigns are the runs the rate is checked on. */
    @Test
    void two_workers_on_two_campaigns_never_overlap_never_mail_twice_and_hold_the_relay_rate_in_total() throws Exception {
        runWorkers("two", 2, 300, true);
    }

    @Test
    @Tag("slow")
    void four_workers_on_two_campaigns_never_overlap_and_never_mail_twice() throws Exception {
        runWorkers("four", 4, 1000, false);
    }

    private void runWorkers(String name, int workers, int perCampaign, boolean checkRate) throws Exception {
        ConcurrentLinkedQueue<Long> acceptedAt = new ConcurrentLinkedQueue<>();
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder()
                .onMessage(cmd -> {
                    if (Fixtures.isComplete(cmd.argument())) {
                        acceptedAt.add(System.nanoTime());
                    }
                    return Reply.of(250, "2.0.0 queued");
                })
                .start()) {
            Campaigns campaigns = new Campaigns(db.dataSource(), new TaskStore(db.dataSource()),
                    new TemplateLoader(Path.of("templates")), Clock.systemUTC(), Duration.ofSeconds(3));
            List<Long> ids = new ArrayList<>();
            for (int c = 0; c < 2; c++) {
                long id = campaigns.create(new NewCampaign(name + " " + c, "welcome", "news@sender.example", Optional.empty(),
                        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
                Fixtures.recipients(db.dataSource(), id, c * perCampaign, perCampaign);
                campaigns.start(id);
                ids.add(id);
            }
            Map<String, String> env = WorkerProcess.env(db, smtp.port(), Integer.toString(RATE));
            KeyPair keys = dkimKey(env);
            List<WorkerProcess> processes = new ArrayList<>();
            try {
                for (int w = 0; w < workers; w++) {
                    Map<String, String> own = new HashMap<>(env);
                    own.put("MAILRUN_TEMPLATES_DIR", templatesDir(name, w).toString());
                    processes.add(WorkerProcess.start(name + "-worker-" + w, own));
                }
                waitFor(() -> ids.stream().allMatch(id -> {
                    try {
                        return "completed".equals(Fixtures.campaignStatus(db.dataSource(), id));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }), Duration.ofSeconds(30L + 2L * perCampaign * 2 / RATE));
                for (WorkerProcess p : processes) {
                    assertThat(p.stop()).as("worker %s stops on SIGTERM", p.log).isTrue();
                }
            } finally {
                for (WorkerProcess p : processes) {
                    p.close();
                }
            }

            List<Fixtures.RunRow> runs = Fixtures.finishedRuns(db.dataSource());
            Map<String, Integer> received = Fixtures.perAddress(smtp.messages());
            List<Long> times = new ArrayList<>(acceptedAt);
            times.sort(null);
            int maxPerSecond = maxInOneSecond(times);
            long owners = runs.stream().map(Fixtures.RunRow::owner).distinct().count();
            System.out.printf("[fault] %s workers=%d runs=%d owners=%d messages=%d maxInAnyOneSecond=%d rate=%d perSecond=%s%n",
                    name, workers, runs.size(), owners, smtp.messages().size(), maxPerSecond, RATE, perSecond(times));

            assertThat(Fixtures.overlappingRuns(runs)).as("overlapping runs").isEmpty();
            assertThat(received.values()).as("messages per address").allMatch(n -> n == 1);
            assertThat(received).hasSize(2 * perCampaign);
            for (long id : ids) {
                assertThat(Fixtures.counts(db.dataSource(), id)).containsExactly(Map.entry("sent", (long) perCampaign));
            }
            assertThat(owners).as("runs were spread over the workers").isGreaterThan(1);
            for (String raw : smtp.messages()) {
                assertThat(raw).as("rendered from the pinned version, not a worker's disk").doesNotContain(DIVERGED)
                        .contains("Here is how to get started:");
                RelaxedDkimVerifier.Result signature = RelaxedDkimVerifier.verify(raw, keys.getPublic());
                assertThat(signature.valid()).as("DKIM signature of a message").isTrue();
            }
            if (checkRate) {
                assertThat(maxPerSecond).as("messages in any one second").isLessThanOrEqualTo((int) (RATE * 1.1) + BURST);
            }
        }
    }

    private static final String DIVERGED = "Text only one worker's disk holds";

    /**
     * Worker 0's templates.dir does not exist; the others hold a welcome template of different text
     * (written after the campaigns were created and pinned).
     */
    private static Path templatesDir(String name, int worker) throws Exception {
        Path dir = dirs.resolve(name + "-templates-" + worker);
        if (worker == 0) {
            return dir;
        }
        Path welcome = Files.createDirectories(dir.resolve("welcome"));
        Files.writeString(welcome.resolve("subject.txt"), DIVERGED + "\n");
        Files.writeString(welcome.resolve("body.txt"), DIVERGED + " {{ unsubscribe_url }}\n");
        Files.writeString(welcome.resolve("body.html"), "<p>" + DIVERGED + "</p>\n");
        return dir;
    }

    /** Every worker signs with one DKIM key, written for them; the pair, to verify with. */
    private static KeyPair dkimKey(Map<String, String> env) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair keys = generator.generateKeyPair();
        Path key = dirs.resolve("dkim-" + System.nanoTime() + ".pem");
        Files.writeString(key, "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(keys.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
        env.put("MAILRUN_DKIM_DOMAIN", "sender.example");
        env.put("MAILRUN_DKIM_SELECTOR", "s1");
        env.put("MAILRUN_DKIM_PRIVATE_KEY_FILE", key.toString());
        return keys;
    }

    /** Messages accepted in each whole second since the first. */
    static List<Integer> perSecond(List<Long> sorted) {
        List<Integer> buckets = new ArrayList<>();
        for (long t : sorted) {
            int b = (int) ((t - sorted.get(0)) / 1_000_000_000L);
            while (buckets.size() <= b) {
                buckets.add(0);
            }
            buckets.set(b, buckets.get(b) + 1);
        }
        return buckets;
    }

    /** The largest number of accept times (nanoseconds, sorted) within any one-second window. */
    static int maxInOneSecond(List<Long> sorted) {
        int max = 0;
        int start = 0;
        for (int end = 0; end < sorted.size(); end++) {
            while (sorted.get(end) - sorted.get(start) >= 1_000_000_000L) {
                start++;
            }
            max = Math.max(max, end - start + 1);
        }
        return max;
    }
}
