package dev.mailrun.mail.smtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SendWindowTest {

    private static final long MS = 1_000_000L;
    private static final long START = 5_000 * MS;

    @Test
    void admits_up_to_the_limit_within_a_second_then_says_when_the_oldest_leaves() {
        SendWindow window = SendWindow.forRate(5, SendWindow.SECOND_NANOS);
        for (int i = 0; i < 5; i++) {
            assertThat(window.tryAdmit(START + i * 100 * MS)).isZero();
        }

        assertThat(window.tryAdmit(START + 500 * MS)).isEqualTo(500 * MS);
        assertThat(window.tryAdmit(START + 999 * MS)).isEqualTo(1 * MS);
        assertThat(window.tryAdmit(START + 1000 * MS)).isZero();
        // The second admission (at +100 ms) is now the oldest.
        assertThat(window.tryAdmit(START + 1000 * MS)).isEqualTo(100 * MS);
    }

    @Test
    void places_kept_for_others_free_only_as_more_of_the_oldest_leave_and_never_the_last_place() {
        SendWindow window = SendWindow.forRate(3, SendWindow.SECOND_NANOS);
        assertThat(window.tryAdmit(START, 1)).as("empty: room even with a place kept").isZero();
        assertThat(window.tryAdmit(START + 100 * MS, 1)).isZero();
        assertThat(window.tryAdmit(START + 200 * MS, 1)).as("the third place is kept").isEqualTo(800 * MS);
        assertThat(window.tryAdmit(START + 200 * MS)).as("for the one it is kept for").isZero();
        assertThat(window.tryAdmit(START + 1000 * MS, 1)).as("the oldest left, but one place stays kept")
                .isEqualTo(100 * MS);
        assertThat(window.tryAdmit(START + 1100 * MS, 1)).isZero();
        SendWindow one = SendWindow.forRate(1, SendWindow.SECOND_NANOS);
        assertThat(one.tryAdmit(START, 5)).as("a window of one keeps nothing back").isZero();
    }

    @Test
    void a_refusal_is_not_recorded() {
        SendWindow window = SendWindow.forRate(1, SendWindow.SECOND_NANOS);
        assertThat(window.tryAdmit(START)).isZero();
        for (int i = 1; i < 10; i++) {
            assertThat(window.tryAdmit(START + i * 100 * MS)).isPositive();
        }
        assertThat(window.tryAdmit(START + 1000 * MS)).isZero();
    }

    @Test
    void a_late_message_cannot_bunch_up_with_the_punctual_ones_after_it() {
        // 10/s booked at 0, 100, …, 900 ms; the first thread wakes 150 ms late and goes at 150 ms.
        SendWindow window = SendWindow.forRate(10, SendWindow.SECOND_NANOS);
        long[] sent = new long[20];
        int n = 0;
        for (long booked = 100; booked <= 900; booked += 100) {
            assertThat(window.tryAdmit(START + booked * MS)).isZero();
            sent[n++] = booked;
        }
        assertThat(window.tryAdmit(START + 950 * MS)).isZero(); // the late one, permit booked at 0
        sent[n++] = 950;
        // Booked at 1000 ms: [100, 1100) would hold 11. It waits until the one at 100 ms has left.
        assertThat(window.tryAdmit(START + 1000 * MS)).isEqualTo(100 * MS);
        assertThat(window.tryAdmit(START + 1100 * MS)).isZero();
        sent[n++] = 1100;

        assertThat(maxInAnySecond(java.util.Arrays.copyOf(sent, n))).isLessThanOrEqualTo(10);
    }

    @Test
    void a_message_that_left_later_than_its_admission_counts_from_when_it_left_in_order_with_the_others() {
        SendWindow window = SendWindow.forRate(3, SendWindow.SECOND_NANOS);
        assertThat(window.tryAdmit(START)).isZero();
        assertThat(window.tryAdmit(START + 10 * MS)).isZero();
        assertThat(window.tryAdmit(START + 20 * MS)).isZero();
        // The first one left at 30 ms, after both others: the oldest is now the one at 10 ms.
        assertThat(window.moveLater(START, START + 30 * MS)).isTrue();

        assertThat(window.tryAdmit(START + 1000 * MS)).as("the one at 10 ms is the oldest now").isEqualTo(10 * MS);
        assertThat(window.tryAdmit(START + 1010 * MS)).isZero();
        assertThat(window.tryAdmit(START + 1020 * MS)).isZero();
        assertThat(window.tryAdmit(START + 1020 * MS)).as("the moved one leaves the window at 1,030 ms")
                .isEqualTo(10 * MS);
        assertThat(window.tryAdmit(START + 1030 * MS)).isZero();
    }

    @Test
    void an_admission_no_longer_in_the_window_is_not_moved() {
        SendWindow window = SendWindow.forRate(1, SendWindow.SECOND_NANOS);
        assertThat(window.tryAdmit(START)).isZero();
        assertThat(window.tryAdmit(START + 1000 * MS)).isZero();

        assertThat(window.moveLater(START, START + 1005 * MS)).isFalse();
        assertThat(window.tryAdmit(START + 2000 * MS)).as("the window still counts from 1,000 ms").isZero();
    }

    @Test
    void a_fractional_rate_allows_the_next_whole_number_per_second() {
        assertThat(SendWindow.forRate(12.5, SendWindow.SECOND_NANOS).limit()).isEqualTo(13);
        assertThat(SendWindow.forRate(0.2, SendWindow.SECOND_NANOS).limit()).isEqualTo(1);
        assertThat(SendWindow.forRate(1000, SendWindow.SECOND_NANOS).limit()).isEqualTo(1000);
    }

    @Test
    void resizing_keeps_the_last_second_in_mind() {
        SendWindow window = SendWindow.forRate(3, SendWindow.SECOND_NANOS);
        window.tryAdmit(START);
        window.tryAdmit(START + 10 * MS);
        window.tryAdmit(START + 20 * MS);

        SendWindow lower = window.resized(2);
        // The newest two (10 and 20 ms) are kept: the next may go when the one at 10 ms has left.
        assertThat(lower.tryAdmit(START + 500 * MS)).isEqualTo(510 * MS);

        SendWindow higher = window.resized(5);
        assertThat(higher.tryAdmit(START + 500 * MS)).isZero();
        assertThat(higher.tryAdmit(START + 500 * MS)).isZero();
        assertThat(higher.tryAdmit(START + 500 * MS)).isEqualTo(500 * MS);
    }

    @Test
    void a_wider_span_holds_the_limit_over_the_span_and_keeps_it_when_resized() {
        long span = 1_003 * MS;
        SendWindow window = SendWindow.forRate(2, span);
        assertThat(window.tryAdmit(START)).isZero();
        assertThat(window.tryAdmit(START + 10 * MS)).isZero();
        // A one-second window would admit at +1000 ms; this one waits until +1003 ms.
        assertThat(window.tryAdmit(START + 1_000 * MS)).isEqualTo(3 * MS);
        assertThat(window.tryAdmit(START + 1_003 * MS)).isZero();

        SendWindow resized = window.resized(1);
        assertThat(resized.spanNanos()).isEqualTo(span);
        assertThat(resized.tryAdmit(START + 2_000 * MS)).isEqualTo(6 * MS);
        assertThatThrownBy(() -> SendWindow.forRate(1, 999 * MS)).hasMessageContaining("at least a second");
    }

    @Test
    void a_window_needs_a_positive_rate() {
        assertThatThrownBy(() -> SendWindow.forRate(0, SendWindow.SECOND_NANOS)).hasMessageContaining("positive rate");
        assertThatThrownBy(() -> SendWindow.forRate(Double.NaN, SendWindow.SECOND_NANOS)).hasMessageContaining("positive rate");
    }

    private static int maxInAnySecond(long[] sortedMillis) {
        java.util.Arrays.sort(sortedMillis);
        int best = 0;
        for (int i = 0, j = 0; i < sortedMillis.length; i++) {
            while (j < sortedMillis.length && sortedMillis[j] - sortedMillis[i] < 1000) {
                j++;
            }
            best = Math.max(best, j - i);
        }
        return best;
    }

    @Test
    void another_runs_last_second_counts_as_if_sent_here_and_only_within_the_span() {
        SendWindow before = SendWindow.forRate(5, SendWindow.SECOND_NANOS);
        // The run before sent 3 in its last second: 900, 500 and 100 ms before it ended.
        for (long at : new long[] {100, 500, 900}) {
            assertThat(before.tryAdmit(START + at * MS)).isZero();
        }
        long[] ages = before.agesWithin(START + 1000 * MS);
        assertThat(ages).containsExactly(100 * MS, 500 * MS, 900 * MS);

        // This run starts 200 ms later: those sends are 300, 700 and 1100 ms old; two still count.
        SendWindow next = SendWindow.forRate(5, SendWindow.SECOND_NANOS);
        long start = START + 1200 * MS;
        assertThat(next.admittedAgo(start, new long[] {300 * MS, 700 * MS, 1100 * MS})).as("holds both").isTrue();
        for (int i = 0; i < 3; i++) {
            assertThat(next.tryAdmit(start)).as("room for %d more", 3 - i).isZero();
        }
        // The fourth waits for the send 700 ms ago to leave the second.
        assertThat(next.tryAdmit(start)).isEqualTo(300 * MS);
    }

    @Test
    void a_window_counting_more_sends_than_its_limit_holds_the_newest_and_says_so() {
        SendWindow window = SendWindow.forRate(2, SendWindow.SECOND_NANOS);
        long start = START + 2000 * MS;
        // Five sent in the last second at a pace now dealt among two runs: this one's window holds two.
        assertThat(window.admittedAgo(start, new long[] {10 * MS, 20 * MS, 30 * MS, 40 * MS, 50 * MS})).isFalse();
        assertThat(window.agesWithin(start)).containsExactly(10 * MS, 20 * MS);
        assertThat(window.tryAdmit(start)).as("the second newest binds it").isEqualTo(980 * MS);
    }
}
