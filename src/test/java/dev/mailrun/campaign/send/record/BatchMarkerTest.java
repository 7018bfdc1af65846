package dev.mailrun.campaign.send.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class BatchMarkerTest {

    /** A flush's room when no results wait: one flush (of the default 100). */
    private static final int ROOM = 100;

    private final AtomicInteger flushRequests = new AtomicInteger();

    private BatchMarker marker(int ahead, int size) {
        List<Long> ids = LongStream.rangeClosed(1, size).boxed().toList();
        return new BatchMarker(ahead, ids, flushRequests::incrementAndGet, id -> !withResult.contains(id));
    }

    private final java.util.Set<Long> withResult = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @Test
    void never_marks_a_recipient_that_already_has_a_result() {
        BatchMarker m = marker(8, 100);
        m.committed(m.take(ROOM).orElseThrow());
        for (long id = 1; id <= 6; id++) {
            m.beforeSend(id);
        }
        // The batch stops: 9 and 10, not marked yet, are reported not attempted (and may already be
        // back in the queue) before the worker sending 7 asks for the marks ahead of it.
        withResult.addAll(List.of(9L, 10L));
        m.beforeSend(7);
        Marks next = m.take(ROOM).orElseThrow();
        assertThat(next.ids()).containsExactly(11L, 12L, 13L, 14L, 15L);
        assertThat(next.upTo()).isEqualTo(15);
    }

    @Test
    void keeps_half_a_flush_marked_ahead_or_two_per_connection_but_never_more_than_a_flush() {
        assertThat(BatchMarker.ahead(4, 100)).isEqualTo(50);
        assertThat(BatchMarker.ahead(40, 100)).isEqualTo(80);
        assertThat(BatchMarker.ahead(60, 100)).isEqualTo(100);
        assertThat(BatchMarker.ahead(4, 1)).isEqualTo(1);
    }

    @Test
    void marks_only_what_the_flush_has_room_for_beside_the_marks_not_yet_handed_out() {
        BatchMarker m = marker(8, 100);
        m.committed(m.take(ROOM).orElseThrow());
        for (long id = 1; id <= 7; id++) {
            m.beforeSend(id);   // asks up to 7 + 8 at the seventh
        }
        assertThat(m.untried()).as("8 marked, 7 handed out").isEqualTo(1);

        // 95 results wait to be written: room 5, one of it taken by the mark not yet handed out.
        Marks first = m.take(5).orElseThrow();
        assertThat(first.ids()).containsExactly(9L, 10L, 11L, 12L);
        m.committed(first);
        assertThat(m.wanted()).as("the rest is still wanted").isTrue();

        assertThat(m.take(5)).as("no room left").isEmpty();
        assertThat(m.wanted()).isTrue();
        Marks rest = m.take(ROOM).orElseThrow();
        assertThat(rest.ids()).containsExactly(13L, 14L, 15L);
        m.committed(rest);
        assertThat(m.wanted()).isFalse();
    }

    @Test
    void marks_not_yet_handed_out_never_exceed_the_room_however_far_ahead_the_workers_ask() {
        BatchMarker m = marker(40, 500);
        int room = 30;
        java.util.Random random = new java.util.Random(7);
        long next = 1;
        for (int flush = 0; flush < 2000 && next <= 500; flush++) {
            int waiting = random.nextInt(room);   // results waiting to be written by this flush
            m.take(room - waiting).ifPresent(marks -> {
                m.committed(marks);
                assertThat(m.untried()).as("marked, not handed out").isLessThanOrEqualTo(room - waiting);
            });
            // The workers send what is marked, a few at a time; each asks for 40 ahead of it.
            for (int i = random.nextInt(12); i > 0 && m.untried() > 0; i--) {
                m.beforeSend(next++);
            }
        }
        assertThat(next).as("the batch was sent through").isGreaterThan(500);
    }

    @Test
    void the_first_flush_marks_the_first_window_and_sending_waits_for_nothing_once_it_committed() {
        BatchMarker m = marker(8, 100);
        assertThat(m.wanted()).isTrue();

        Marks marks = m.take(ROOM).orElseThrow();
        assertThat(marks.ids()).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
        assertThat(m.wanted()).as("taken by a flush in progress").isFalse();
        assertThat(m.take(ROOM)).as("one flush at a time").isEmpty();
        m.committed(marks);

        m.beforeSend(1);
        m.beforeSend(2);
        assertThat(flushRequests).as("six of eight still marked ahead").hasValue(0);
    }

    @Test
    void asks_for_more_marks_once_fewer_than_a_quarter_of_those_ahead_are_left() {
        BatchMarker m = marker(8, 100);
        m.committed(m.take(ROOM).orElseThrow());

        for (long id = 1; id <= 6; id++) {
            m.beforeSend(id);   // 7 … 2 ahead: a quarter (2) still left
        }
        assertThat(flushRequests).hasValue(0);
        m.beforeSend(7);   // 1 ahead: ask up to 7 + 8
        assertThat(flushRequests).hasValue(1);

        Marks next = m.take(ROOM).orElseThrow();
        assertThat(next.ids()).containsExactly(9L, 10L, 11L, 12L, 13L, 14L, 15L);
        assertThat(next.upTo()).isEqualTo(15);
    }

    @Test
    void with_only_two_ahead_asks_once_none_are_left_and_never_stalls() {
        BatchMarker m = marker(2, 6);
        m.committed(m.take(ROOM).orElseThrow());
        m.beforeSend(1);   // 1 ahead
        assertThat(flushRequests).hasValue(0);
        m.beforeSend(2);   // none ahead: ask up to 2 + 2
        assertThat(flushRequests).hasValue(1);
        Marks next = m.take(ROOM).orElseThrow();
        assertThat(next.ids()).containsExactly(3L, 4L);
    }

    @Test
    void never_asks_beyond_the_end_of_the_batch() {
        BatchMarker m = marker(8, 5);
        Marks marks = m.take(ROOM).orElseThrow();
        assertThat(marks.ids()).containsExactly(1L, 2L, 3L, 4L, 5L);
        m.committed(marks);
        for (long id = 1; id <= 5; id++) {
            m.beforeSend(id);
        }
        assertThat(m.wanted()).isFalse();
        assertThat(m.take(ROOM)).isEmpty();
        assertThat(flushRequests).hasValue(0);
    }

    @Test
    void a_failed_flush_stops_every_send_that_is_not_marked_yet() {
        BatchMarker m = marker(4, 20);
        m.take(ROOM).orElseThrow();

        m.fail("could not mark recipients in flight: connection lost");

        assertThat(m.failed()).isTrue();
        assertThatThrownBy(() -> m.beforeSend(1)).isInstanceOf(IllegalStateException.class)
                .hasMessage("could not mark recipients in flight: connection lost");
        assertThat(m.take(ROOM)).isEmpty();
    }

    @Test
    void a_recipient_outside_the_batch_is_refused() {
        BatchMarker m = marker(4, 3);
        assertThatThrownBy(() -> m.beforeSend(99)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("recipient 99 is not part of this batch");
    }

    @Test
    void a_worker_waiting_for_its_mark_goes_on_when_the_flush_commits() throws Exception {
        BatchMarker m = marker(4, 20);
        Marks marks = m.take(ROOM).orElseThrow();
        Thread worker = new Thread(() -> m.beforeSend(2));
        worker.start();

        m.committed(marks);
        worker.join(10_000);

        assertThat(worker.isAlive()).isFalse();
    }

    @Test
    void a_worker_that_waits_for_its_mark_says_it_waits_on_the_database_and_one_already_marked_does_not() throws Exception {
        AtomicInteger begins = new AtomicInteger();
        AtomicInteger ends = new AtomicInteger();
        DatabaseWaits waits = new DatabaseWaits() {
            @Override
            public void begins() {
                begins.incrementAndGet();
            }

            @Override
            public void ends() {
                ends.incrementAndGet();
            }
        };
        BatchMarker m = new BatchMarker(4, LongStream.rangeClosed(1, 20).boxed().toList(), () -> { }, id -> true, waits);
        Marks marks = m.take(ROOM).orElseThrow();
        Thread worker = new Thread(() -> m.beforeSend(2));
        worker.start();
        while (worker.getState() != Thread.State.WAITING && worker.isAlive()) {
            Thread.onSpinWait();
        }
        assertThat(begins).as("waiting for the flush to mark it").hasValue(1);
        assertThat(ends).hasValue(0);

        m.committed(marks);
        worker.join(10_000);
        m.beforeSend(3);

        assertThat(begins).as("3 was marked already").hasValue(1);
        assertThat(ends).hasValue(1);
    }
}
