package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetup;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.scheduler.TaskStore;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** With replies.imap.* set, {@code tick} creates the replies task and runs it against the mailbox. */
class RepliesTaskCommandTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetup.dynamicPort(ServerSetupTest.SMTP_IMAP));

    private static final Instant START = Instant.parse("2026-11-21T10:00:00Z");

    @Test
    void the_replies_task_is_created_at_tick_and_reads_the_mailbox() throws Exception {
        greenMail.setUser("news@sender.example", "replies", "pw");
        GreenMailUtil.sendTextEmail("news@sender.example", "stranger@elsewhere.example", "Hello", "Hi!\n",
                greenMail.getSmtp().getServerSetup());
        Map<String, String> env = new HashMap<>();
        env.put("MAILRUN_DB_URL", db.url());
        env.put("MAILRUN_DB_USER", db.user());
        env.put("MAILRUN_DB_PASSWORD", db.password());
        env.put("MAILRUN_SMTP_HOST", "127.0.0.1");
        env.put("MAILRUN_SMTP_PORT", "1");
        env.put("MAILRUN_UNSUBSCRIBE_SECRET", "a-test-secret-that-is-long-enough-0123456789");
        env.put("MAILRUN_UNSUBSCRIBE_BASE_URL", "https://unsubscribe.sender.example");
        env.put("MAILRUN_REPLIES_IMAP_HOST", "127.0.0.1");
        env.put("MAILRUN_REPLIES_IMAP_PORT", Integer.toString(greenMail.getImap().getPort()));
        env.put("MAILRUN_REPLIES_IMAP_TLS", "false");
        env.put("MAILRUN_REPLIES_IMAP_USER", "replies");
        env.put("MAILRUN_REPLIES_IMAP_PASSWORD", "pw");
        CliHarness cli = new CliHarness(env, SettableClock.stepping(START, Duration.ofMillis(1)));

        CliHarness.Result tick = cli.run("tick");
        assertThat(tick.exitCode()).as(tick.err()).isZero();
        assertThat(tick.out()).contains("replies: ");
        var task = new TaskStore(db.dataSource()).find("replies").orElseThrow();
        assertThat(task.handler()).isEqualTo("reply-check");
        var run = new TaskStore(db.dataSource()).recentRuns("replies", 1).get(0);
        assertThat(run.summary().orElseThrow().path("read").asInt()).isEqualTo(1);
        assertThat(run.summary().orElseThrow().path("unmatched").asInt()).isEqualTo(1);
        assertThat(run.summary().orElseThrow().path("replies").asInt()).isZero();
    }
}
