package dev.mailrun.campaign.send.pace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.store.PaceTailTable.Handover;
import dev.mailrun.campaign.store.RelayShareTable.Holders;
import dev.mailrun.campaign.store.RelayShareTable.Live;
import dev.mailrun.mail.smtp.SendRateLimiter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a holder owes the runs joining its paces, and when a joining run has what it waits for. */
class ShareHandoverTest {

    private static Live live(String... others) {
        return new Live(new Holders(others.length + 1, 0), Set.of(others), Set.of());
    }

    @Test
    void a_joining_run_counts_every_send_still_in_a_window_not_only_those_of_the_last_second() {
        // A send 1,003 ms old binds a window of 1.005 s: a joiner reading tails and handovers
        // within a second only would leave it out and could send its place 2 ms early.
        assertThat(RelayShare.WITHIN_MILLIS * 1_000_000).isGreaterThanOrEqualTo(SendRateLimiter.SPAN.toNanos());
        assertThat(RelayRate.RISE_AFTER).as("a share given up is taken over once its sends left every window")
                .isGreaterThanOrEqualTo(SendRateLimiter.SPAN);
    }

    @Test
    void a_holder_hands_over_once_to_each_new_holder_with_what_it_sent_beyond_its_lowered_pace() {
        ShareHandover handover = new ShareHandover();
        Map<String, Live> alone = Map.of("relay", live(), "domain:gmail", live());
        assertThat(handover.owed(alone)).isEmpty();
        handover.written(alone, List.of());

        // A renewal finds a joiner on both paces and lowered the relay's: two of its sends no longer fit.
        handover.lowered("relay", new long[] {300_000_000L, 450_000_000L});
        Map<String, Live> joined = Map.of("relay", live("run-b"), "domain:gmail", live("run-b"));
        List<Handover> owed = handover.owed(joined);

        assertThat(owed).hasSize(2);
        Handover relay = owed.stream().filter(h -> h.name().equals("relay")).findFirst().orElseThrow();
        assertThat(relay.joiner()).isEqualTo("run-b");
        assertThat(relay.agesMillis()).containsExactly(300, 450);
        Handover group = owed.stream().filter(h -> h.name().equals("domain:gmail")).findFirst().orElseThrow();
        assertThat(group.agesMillis()).as("its pace there was not lowered: nothing to count").isEmpty();

        handover.written(joined, owed);
        assertThat(handover.owed(joined)).as("handed over already").isEmpty();
    }

    @Test
    void a_handover_not_written_is_owed_again_with_the_same_sends() {
        ShareHandover handover = new ShareHandover();
        handover.lowered("relay", new long[] {200_000_000L});
        Map<String, Live> joined = Map.of("relay", live("run-b"));
        assertThat(handover.owed(joined)).hasSize(1);

        // The renewal's transaction failed: the next renewal, which lowers nothing, owes the same.
        List<Handover> again = handover.owed(joined);
        assertThat(again).hasSize(1);
        assertThat(again.get(0).agesMillis()).containsExactly(200);
    }

    @Test
    void a_joiner_waits_for_every_other_holder_of_every_pace() {
        Map<String, Live> found = Map.of("relay", live("run-a", "run-c"), "domain:gmail", live("run-a"));
        long[] none = new long[0];

        assertThat(ShareHandover.complete(found, Map.of("relay", Map.of("run-a", none)))).isFalse();
        assertThat(ShareHandover.complete(found, Map.of("relay", Map.of("run-a", none, "run-c", none)))).isFalse();
        assertThat(ShareHandover.complete(found, Map.of("relay", Map.of("run-a", none, "run-c", none),
                "domain:gmail", Map.of("run-a", none)))).isTrue();
        assertThat(ShareHandover.complete(Map.of("relay", live()), Map.of())).as("alone").isTrue();
    }

    @Test
    void a_joiner_counts_the_tails_of_runs_that_ended_and_every_handover() {
        Map<String, long[]> counted = ShareHandover.counted(Map.of("relay", new long[] {900}),
                Map.of("relay", Map.of("run-a", new long[] {100, 200}, "run-c", new long[0]),
                        "domain:gmail", Map.of("run-a", new long[] {50})));

        assertThat(counted.get("relay")).containsExactly(100_000_000L, 200_000_000L, 900_000_000L);
        assertThat(counted.get("domain:gmail")).containsExactly(50_000_000L);
    }
}
