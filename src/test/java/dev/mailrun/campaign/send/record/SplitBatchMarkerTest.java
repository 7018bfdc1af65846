package dev.mailrun.campaign.send.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class SplitBatchMarkerTest {

    private static BatchMarker marker(int ahead, long first, long last) {
        return new BatchMarker(ahead, LongStream.rangeClosed(first, last).boxed().toList(), () -> { }, id -> true);
    }

    @Test
    void the_relays_of_a_batch_share_the_room_of_one_flush() {
        BatchMarker a = marker(10, 1, 50);
        BatchMarker b = marker(10, 101, 150);
        SplitBatchMarker group = new SplitBatchMarker(List.of(a, b));

        // Room for 15: the first relay takes its 10, the second what is left.
        Marks first = group.take(15).orElseThrow();
        assertThat(first.ids()).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 101L, 102L, 103L, 104L, 105L);
        group.committed(first);
        assertThat(a.untried() + b.untried()).isEqualTo(15);
        assertThat(group.wanted()).as("the second relay's other five").isTrue();

        // Marks not yet handed out count against the room: none left for 15.
        assertThat(group.take(15)).isEmpty();
        for (long id = 101; id <= 105; id++) {
            b.beforeSend(id);
        }
        Marks second = group.take(15).orElseThrow();
        assertThat(second.ids()).as("10 of a's still ahead, room for 5 more of b's 10")
                .containsExactly(106L, 107L, 108L, 109L, 110L);
    }
}
