package dev.mailrun.campaign.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.bounce.BounceRateBreaker;
import dev.mailrun.campaign.bounce.BounceSettings;
import dev.mailrun.campaign.bounce.ComplaintRateBreaker;
import dev.mailrun.campaign.bounce.Rows;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.mail.feedback.FeedbackEvent;
import dev.mailrun.mail.feedback.FeedbackEvent.Kind;
import dev.mailrun.mail.feedback.MessageTags;
import dev.mailrun.mail.feedback.Provider;
import dev.mailrun.mail.feedback.SendIds;
import dev.mailrun.mail.feedback.Verdict;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class FeedbackProcessorTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.at("2026-11-21T10:00:00Z");
    private final Rows rows = new Rows(db.dataSource());
    private final BounceSettings settings = new BounceSettings(3, 0.05, 10, 0.003);
    private final FeedbackProcessor processor = new FeedbackProcessor(db.dataSource(),
            new FeedbackApplier(new SuppressionTable(), settings), new BounceRateBreaker(db.dataSource(), settings, clock),
            new ComplaintRateBreaker(db.dataSource(), settings, clock), clock);

    private long campaign;

    @BeforeEach
    void clean() throws Exception {
        rows.clear();
        campaign = rows.campaign("running");
    }

    private static FeedbackEvent event(Provider p, String id, Kind kind, String address, Optional<SendIds> ids, String status) {
        return new FeedbackEvent(p, id, kind, address, ids, Optional.empty(), status, OptionalInt.empty(), "test " + kind);
    }

    private FeedbackSummary apply(FeedbackEvent... events) throws Exception {
        return processor.apply(events[0].provider(), Verdict.Accepted.of(List.of(events)));
    }

    private String suppression(String address) throws Exception {
        return rows.string("SELECT CONCAT(reason, ' ', source) FROM suppression WHERE address = ?", address);
    }

    @Test
    void a_hard_bounce_suppresses_the_address_everywhere_and_fails_the_send_once_however_often_it_is_delivered() throws Exception {
        long ann = rows.recipient(campaign, "Ann@list.example", "sent", null);
        FeedbackEvent hard = event(Provider.SES, "sns-1/0", Kind.HARD, "Ann@list.example", Optional.of(new SendIds(campaign, ann)), "5.1.1");

        FeedbackSummary first = apply(hard);
        FeedbackSummary again = apply(hard);

        assertThat(first.count(FeedbackApplier.Effect.HARD)).isEqualTo(1);
        assertThat(again.count(FeedbackApplier.Effect.DUPLICATE)).isEqualTo(1);
        assertThat(suppression("ann@list.example")).isEqualTo("hard_bounce ses:campaign=" + campaign + " status=5.1.1");
        assertThat(rows.string("SELECT CONCAT(status, ' ', last_code) FROM recipient WHERE id = ?", ann)).isEqualTo("failed 550");
        assertThat(rows.count("SELECT COUNT(*) FROM bounce_event")).isEqualTo(1);
        assertThat(rows.count("SELECT COUNT(*) FROM feedback_event")).isEqualTo(1);
    }

    @Test
    void transient_failures_count_once_per_send_toward_the_soft_limit_and_leave_the_send_as_it_is() throws Exception {
        long bob = rows.recipient(campaign, "bob@list.example", "sent", null);
        Optional<SendIds> ids = Optional.of(new SendIds(campaign, bob));

        FeedbackSummary summary = apply(event(Provider.SENDGRID, "ev-1", Kind.SOFT, "bob@list.example", ids, ""),
                event(Provider.SENDGRID, "ev-2", Kind.SOFT, "bob@list.example", ids, "4.2.2"));

        assertThat(summary.count(FeedbackApplier.Effect.SOFT)).isEqualTo(1);
        assertThat(summary.count(FeedbackApplier.Effect.DUPLICATE)).as("the second deferral of the same send").isEqualTo(1);
        assertThat(rows.count("SELECT bounces FROM soft_bounce WHERE address = 'bob@list.example'")).isEqualTo(1);
        assertThat(rows.string("SELECT status FROM recipient WHERE id = ?", bob)).isEqualTo("sent");
        assertThat(suppression("bob@list.example")).isNull();
    }

    @Test
    void a_refusal_fails_the_send_and_suppresses_nothing_a_complaint_and_an_unsubscribe_suppress() throws Exception {
        long cid = rows.recipient(campaign, "cid@list.example", "sent", null);
        long dee = rows.recipient(campaign, "dee@list.example", "sent", null);
        long eve = rows.recipient(campaign, "eve@list.example", "sent", null);

        FeedbackSummary summary = apply(
                event(Provider.POSTMARK, "id:1", Kind.REFUSED, "cid@list.example", Optional.of(new SendIds(campaign, cid)), ""),
                event(Provider.POSTMARK, "id:2", Kind.COMPLAINT, "dee@list.example", Optional.of(new SendIds(campaign, dee)), ""),
                event(Provider.POSTMARK, "id:3", Kind.UNSUBSCRIBE, "eve@list.example", Optional.of(new SendIds(campaign, eve)), ""));

        assertThat(summary.describe()).isEqualTo("complaint=1 refused=1 unsubscribed=1");
        assertThat(rows.string("SELECT CONCAT(status, ' ', last_code) FROM recipient WHERE id = ?", cid)).isEqualTo("failed 550");
        assertThat(suppression("cid@list.example")).isNull();
        assertThat(suppression("dee@list.example")).isEqualTo("complaint complaint:postmark campaign=" + campaign);
        assertThat(suppression("eve@list.example")).isEqualTo("unsubscribed unsubscribe:postmark campaign=" + campaign);
    }

    @Test
    void a_bounce_of_a_test_send_changes_nothing_even_when_its_address_is_a_recipient_who_was_sent_to() throws Exception {
        long tess = rows.recipient(campaign, "tess@list.example", "sent", null);
        // The metadata of a test send names recipient 0, as a provider echoes it back.
        Optional<SendIds> ids = MessageTags.read(name -> Optional.of(name.equals(MessageTags.CAMPAIGN) ? Long.toString(campaign) : "0"));
        assertThat(ids).as("a test send's metadata is read").map(SendIds::recipientId).contains(0L);

        FeedbackSummary summary = apply(event(Provider.POSTMARK, "pm-test", Kind.HARD, "tess@list.example", ids, "5.1.1"),
                event(Provider.POSTMARK, "pm-test-2", Kind.COMPLAINT, "tess@list.example", ids, ""));

        assertThat(summary.count(FeedbackApplier.Effect.UNMATCHED)).isEqualTo(2);
        assertThat(suppression("tess@list.example")).isNull();
        assertThat(rows.string("SELECT status FROM recipient WHERE id = ?", tess)).isEqualTo("sent");
        assertThat(rows.count("SELECT COUNT(*) FROM bounce_event")).isZero();
    }

    @Test
    void ids_naming_a_recipient_with_another_address_are_not_trusted_the_event_goes_to_its_address() throws Exception {
        long victim = rows.recipient(campaign, "victim@list.example", "sent", null);
        long ann = rows.recipient(campaign, "ann@list.example", "sent", null);

        apply(event(Provider.MAILGUN, "mg-1", Kind.HARD, "ann@list.example", Optional.of(new SendIds(campaign, victim)), "5.1.1"));

        assertThat(rows.string("SELECT status FROM recipient WHERE id = ?", victim)).isEqualTo("sent");
        assertThat(suppression("victim@list.example")).isNull();
        assertThat(rows.string("SELECT status FROM recipient WHERE id = ?", ann)).isEqualTo("failed");
        assertThat(suppression("ann@list.example")).startsWith("hard_bounce mailgun:campaign=" + campaign);
    }

    @Test
    void without_ids_the_message_id_and_then_the_latest_send_to_the_address_are_used() throws Exception {
        long older = rows.campaign("completed");
        long oldSend = rows.recipient(older, "fay@list.example", "sent", null);
        long newSend = rows.recipient(campaign, "fay@list.example", "sent", null);
        rows.execute("UPDATE recipient SET sent_at = '2026-11-20 10:00:00' WHERE id = ?", newSend);
        long gus = rows.recipient(older, "gus@list.example", "sent", "<c1.r2.0123456789abcdef@sender.example>");
        rows.recipient(campaign, "gus@list.example", "sent", null);
        rows.execute("UPDATE recipient SET sent_at = '2026-11-20 10:00:00' WHERE campaign_id = ? AND email = 'gus@list.example'", campaign);

        apply(event(Provider.SENDGRID, "ev-fay", Kind.REFUSED, "FAY@list.example", Optional.empty(), ""),
                new FeedbackEvent(Provider.SENDGRID, "ev-gus", Kind.REFUSED, "gus@list.example", Optional.empty(),
                        Optional.of("<c1.r2.0123456789abcdef@sender.example>"), "", OptionalInt.empty(), "blocked"));

        assertThat(rows.string("SELECT status FROM recipient WHERE id = ?", newSend)).as("latest send").isEqualTo("failed");
        assertThat(rows.string("SELECT status FROM recipient WHERE id = ?", oldSend)).isEqualTo("sent");
        assertThat(rows.string("SELECT status FROM recipient WHERE id = ?", gus)).as("by Message-ID").isEqualTo("failed");
    }

    @Test
    void the_latest_send_to_an_address_is_found_whatever_the_case_of_its_local_part() throws Exception {
        long hal = rows.recipient(campaign, "Hal.Jordan@list.example", "sent", null);

        apply(event(Provider.SES, "sns-hal/0", Kind.HARD, "hal.jordan@LIST.example", Optional.empty(), "5.1.1"));

        assertThat(rows.string("SELECT status FROM recipient WHERE id = ?", hal)).isEqualTo("failed");
        assertThat(suppression("hal.jordan@list.example")).startsWith("hard_bounce ses");
    }

    @Test
    void an_event_for_an_address_never_sent_to_changes_nothing_and_deliveries_are_counted_without_being_stored() throws Exception {
        rows.recipient(campaign, "pending@list.example", "pending", null);

        FeedbackSummary summary = apply(event(Provider.SES, "sns-9/0", Kind.HARD, "nobody@list.example", Optional.empty(), "5.1.1"),
                event(Provider.SES, "sns-9/1", Kind.HARD, "pending@list.example", Optional.empty(), "5.1.1"),
                event(Provider.SES, "sns-9/2", Kind.HARD, "not an address", Optional.empty(), "5.1.1"),
                event(Provider.SES, "sns-10/0", Kind.DELIVERY, "ann@list.example", Optional.empty(), ""),
                event(Provider.SES, "sns-11/0", Kind.IGNORED, "ann@list.example", Optional.empty(), ""));

        assertThat(summary.describe()).isEqualTo("delivery=1 ignored=1 unmatched=3");
        assertThat(summary.changedAnything()).isFalse();
        assertThat(rows.count("SELECT COUNT(*) FROM suppression")).isZero();
        assertThat(rows.count("SELECT COUNT(*) FROM feedback_event WHERE event_id LIKE 'event:sns-1_/%'")).isZero();
    }

    @Test
    void a_one_time_token_used_a_second_time_is_a_replay_and_changes_nothing() throws Exception {
        long hal = rows.recipient(campaign, "hal@list.example", "sent", null);
        long ivy = rows.recipient(campaign, "ivy@list.example", "sent", null);
        FeedbackEvent genuine = event(Provider.MAILGUN, "mg-a", Kind.SOFT, "hal@list.example", Optional.of(new SendIds(campaign, hal)), "4.2.2");
        FeedbackEvent swapped = event(Provider.MAILGUN, "mg-b", Kind.HARD, "ivy@list.example", Optional.of(new SendIds(campaign, ivy)), "5.1.1");

        FeedbackSummary first = processor.apply(Provider.MAILGUN, new Verdict.Accepted(List.of(genuine), Optional.of("token-1")));
        FeedbackSummary replay = processor.apply(Provider.MAILGUN, new Verdict.Accepted(List.of(swapped), Optional.of("token-1")));

        assertThat(first.replayed()).isFalse();
        assertThat(replay.replayed()).isTrue();
        assertThat(rows.string("SELECT status FROM recipient WHERE id = ?", ivy)).isEqualTo("sent");
        assertThat(suppression("ivy@list.example")).isNull();
    }

    @Test
    void remembered_event_ids_are_pruned_after_seven_days_and_not_before() throws Exception {
        long jo = rows.recipient(campaign, "jo@list.example", "sent", null);
        apply(event(Provider.SES, "old/0", Kind.SOFT, "jo@list.example", Optional.of(new SendIds(campaign, jo)), "4.0.0"));

        clock.advance(Duration.ofDays(7).minusMinutes(1));
        apply(event(Provider.SES, "x/0", Kind.DELIVERY, "jo@list.example", Optional.empty(), ""));
        long kept = rows.count("SELECT COUNT(*) FROM feedback_event WHERE event_id = 'event:old/0'");
        clock.advance(Duration.ofMinutes(62));
        apply(event(Provider.SES, "y/0", Kind.DELIVERY, "jo@list.example", Optional.empty(), ""));

        assertThat(kept).isEqualTo(1);
        assertThat(rows.count("SELECT COUNT(*) FROM feedback_event WHERE event_id = 'event:old/0'")).isZero();
    }

    @Test
    void a_complaint_rate_above_the_threshold_pauses_a_running_campaign_once_it_has_the_minimum_sample() throws Exception {
        List<Long> sent = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            sent.add(rows.recipient(campaign, "r" + i + "@list.example", "sent", null));
        }
        FeedbackSummary below = apply(event(Provider.SES, "c-1/0", Kind.COMPLAINT, "r0@list.example",
                Optional.of(new SendIds(campaign, sent.get(0))), ""));
        assertThat(below.pausedCampaigns()).as("9 sends are below bounce.min-sample 10").isEmpty();
        sent.add(rows.recipient(campaign, "r9@list.example", "sent", null));

        FeedbackSummary above = apply(event(Provider.SES, "c-2/0", Kind.COMPLAINT, "r1@list.example",
                Optional.of(new SendIds(campaign, sent.get(1))), ""));

        assertThat(above.pausedCampaigns()).containsExactly(campaign);
        assertThat(rows.string("SELECT CONCAT(status, ': ', pause_reason) FROM campaign WHERE id = ?", campaign))
                .isEqualTo("paused: complaint rate 20.00% (2 complaints over 10 sends) exceeds 0.30%");
    }

    @Test
    void one_event_delivered_by_many_requests_at_once_is_applied_exactly_once() throws Exception {
        long kim = rows.recipient(campaign, "kim@list.example", "sent", null);
        FeedbackEvent unsubscribe = event(Provider.SENDGRID, "ev-race", Kind.UNSUBSCRIBE, "kim@list.example",
                Optional.of(new SendIds(campaign, kim)), "");
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<FeedbackSummary>> results = new ArrayList<>();
        try {
            for (int i = 0; i < threads; i++) {
                Callable<FeedbackSummary> call = () -> {
                    start.await();
                    return apply(unsubscribe);
                };
                results.add(pool.submit(call));
            }
            start.countDown();
            int applied = 0;
            int duplicates = 0;
            for (Future<FeedbackSummary> f : results) {
                applied += f.get().count(FeedbackApplier.Effect.UNSUBSCRIBED);
                duplicates += f.get().count(FeedbackApplier.Effect.DUPLICATE);
            }
            assertThat(applied).isEqualTo(1);
            assertThat(duplicates).isEqualTo(threads - 1);
        } finally {
            pool.shutdownNow();
        }
    }
}
