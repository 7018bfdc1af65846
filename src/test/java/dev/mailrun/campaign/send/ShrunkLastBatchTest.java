package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.mail.ScriptedSmtpServer.Reply;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SendingHarness;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The end of a list reached by a batch the timebox shrank, through a scripted SMTP server, the real
 * scheduler, sending task and database, on a clock that stands still except where the test moves it.
 */
class ShrunkLastBatchTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Pattern TO = Pattern.compile("(?m)^To: .*<([^>]+)>");

    @Test
    void recipients_a_shrunk_batch_hands_back_at_the_end_of_the_list_are_sent_in_the_same_run() throws Exception {
        // Batches of 10, 10, 15, 23, 35, 53, 80 and 100 (each claimed during the one before, as large
        // as that one) take 326 recipients. The 317th message takes 20 s, far more than predicted, so
        // the timebox shrinks the next batch to one: of the last 60, claimed ahead, it hands back 59,
        // and the claim made ahead beside it leaves those out and finds nothing. The run must write
        // their release and find them before it ends as if the list were done.
        SettableClock clock = SettableClock.at("2026-11-23T09:00:00Z");
        AtomicInteger received = new AtomicInteger();
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder().onMessage(cmd -> {
                    if (received.incrementAndGet() == 317) {
                        clock.advance(Duration.ofSeconds(20));
                    }
                    return Reply.ok();
                }).start();
             SendingHarness h = new SendingHarness(db.dataSource(), clock, smtp.port(), Duration.ofMinutes(5),
                     SendSettingsFixtures.builder().batchMax(100).through("test-relay", 0), "w1")) {
            long id = h.campaigns.create(new NewCampaign("Shrunk at the end", "welcome", "news@sender.example",
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
            CampaignFixtures.recipients(db.dataSource(), id, 386);
            h.campaigns.start(id);

            h.scheduler.tick();

            assertThat(h.tasks.recentRuns(SendTask.taskName(id), 10)).hasSize(1);
            assertThat(SendRuns.endReasons(h.tasks, id)).containsExactly("completed");
            assertThat(h.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);
            assertThat(CampaignFixtures.recipientCount(db.dataSource(), id, "sent")).isEqualTo(386);
            Set<String> addressees = new HashSet<>();
            for (String m : smtp.messages()) {
                Matcher to = TO.matcher(m);
                assertThat(to.find()).isTrue();
                addressees.add(to.group(1));
            }
            assertThat(smtp.messages()).hasSize(386);
            assertThat(addressees).as("nobody mailed twice").hasSize(386);
        }
    }
}
