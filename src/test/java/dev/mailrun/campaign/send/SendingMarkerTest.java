package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class SendingMarkerTest {

    private final AtomicInteger flushRequests = new AtomicInteger();

    private SendingMarker marker(int ahead, int size) {
        List<Long> ids = LongStream.rangeClosed(1, size).boxed().toList();
        return new SendingMarker(ahead, ids, flushRequests::incrementAndGet, id -> !withResult.contains(id));
    }

    private final java.util.Set<Long> withResult = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @Test
    void never_marks_a_recipient_that_already_has_a_result() {
        SendingMarker m = marker(8, 100);
        m.committed(m.take().orElseThrow());
        for (long id = 1; id <= 6; id++) {
            m.beforeSend(id);
        }
        // The batch stops: 9 and 10, not marked yet, are reported not attempted (and may already be
        // back in the queue) before the worker sending 7 asks for the marks ahead of it.
        withResult.addAll(List.of(9L, 10L));
        m.beforeSend(7);
        SendingMarker.Marks next = m.take().orElseThrow();
        assertThat(next.ids()).containsExactly(11L, 12L, 13L, 14L, 15L);
        assertThat(next.upTo()).isEqualTo(15);
    }

    @Test
    void keeps_half_a_flush_marked_ahead_and_never_less_than_two_per_connection() {
        assertThat(SendingMarker.ahead(4, 100)).isEqualTo(50);
        assertThat(SendingMarker.ahead(40, 100)).isEqualTo(80);
    }

    @Test
    void the_first_flush_marks_the_first_window_and_sending_waits_for_nothing_once_it_committed() {
        SendingMarker m = marker(8, 100);
        assertThat(m.wanted()).isTrue();

        SendingMarker.Marks marks = m.take().orElseThrow();
        assertThat(marks.ids()).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
        assertThat(m.wanted()).as("taken by a flush in progress").isFalse();
        assertThat(m.take()).as("one flush at a time").isEmpty();
        m.committed(marks);

        m.beforeSend(1);
        m.beforeSend(2);
        assertThat(flushRequests).as("six of eight still marked ahead").hasValue(0);
    }

    @Test
    void asks_for_more_marks_once_fewer_than_a_quarter_of_those_ahead_are_left() {
        SendingMarker m = marker(8, 100);
        m.committed(m.take().orElseThrow());

        for (long id = 1; id <= 6; id++) {
            m.beforeSend(id);   // 7 … 2 ahead: a quarter (2) still left
        }
        assertThat(flushRequests).hasValue(0);
        m.beforeSend(7);   // 1 ahead: ask up to 7 + 8
        assertThat(flushRequests).hasValue(1);

        SendingMarker.Marks next = m.take().orElseThrow();
        assertThat(next.ids()).containsExactly(9L, 10L, 11L, 12L, 13L, 14L, 15L);
        assertThat(next.upTo()).isEqualTo(15);
    }

    @Test
    void with_only_two_ahead_asks_once_none_are_left_and_never_stalls() {
        SendingMarker m = marker(2, 6);
        m.committed(m.take().orElseThrow());
        m.beforeSend(1);   // 1 ahead
        assertThat(flushRequests).hasValue(0);
        m.beforeSend(2);   // none ahead: ask up to 2 + 2
        assertThat(flushRequests).hasValue(1);
        SendingMarker.Marks next = m.take().orElseThrow();
        assertThat(next.ids()).containsExactly(3L, 4L);
    }

    @Test
    void never_asks_beyond_the_end_of_the_batch() {
        SendingMarker m = marker(8, 5);
        SendingMarker.Marks marks = m.take().orElseThrow();
        assertThat(marks.ids()).containsExactly(1L, 2L, 3L, 4L, 5L);
        m.committed(marks);
        for (long id = 1; id <= 5; id++) {
            m.beforeSend(id);
        }
        assertThat(m.wanted()).isFalse();
        assertThat(m.take()).isEmpty();
        assertThat(flushRequests).hasValue(0);
    }

    @Test
    void a_failed_flush_stops_every_send_that_is_not_marked_yet() {
        SendingMarker m = marker(4, 20);
        m.take().orElseThrow();

        m.fail("could not mark recipients as sending: connection lost");

        assertThat(m.failed()).isTrue();
        assertThatThrownBy(() -> m.beforeSend(1)).isInstanceOf(IllegalStateException.class)
                .hasMessage("could not mark recipients as sending: connection lost");
        assertThat(m.take()).isEmpty();
    }

    @Test
    void a_recipient_outside_the_batch_is_refused() {
        SendingMarker m = marker(4, 3);
        assertThatThrownBy(() -> m.beforeSend(99)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("recipient 99 is not part of this batch");
    }

    @Test
    void a_worker_waiting_for_its_mark_goes_on_when_the_flush_commits() throws Exception {
        SendingMarker m = marker(4, 20);
        SendingMarker.Marks marks = m.take().orElseThrow();
        Thread worker = new Thread(() -> m.beforeSend(2));
        worker.start();

        m.committed(marks);
        worker.join(10_000);

        assertThat(worker.isAlive()).isFalse();
    }
}
