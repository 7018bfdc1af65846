package dev.mailrun.csv;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class RejectLogTest {

    enum Reason implements RejectReason { BAD, LATE }

    @Test
    void the_summary_keeps_the_first_rejected_lines_of_the_file_in_line_order_whatever_order_they_were_decided_in() throws Exception {
        try (RejectLog<Reason> log = RejectLog.to(Reason.class, Optional.empty(), IllegalStateException::new)) {
            // The reader rejects as it reads; a writer rejects its batch's rows later, from earlier lines.
            for (long line = 30; line < 60; line++) {
                log.reject(line, "r" + line, Reason.BAD, "");
            }
            for (long line = 2; line < 12; line++) {
                log.reject(line, "w" + line, Reason.LATE, "");
            }

            assertThat(log.first()).extracting(RejectedRow::line)
                    .containsExactly(2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 30L, 31L, 32L, 33L, 34L, 35L, 36L, 37L, 38L, 39L);
            assertThat(log.counts()).containsEntry(Reason.BAD, 30L).containsEntry(Reason.LATE, 10L);
        }
    }
}
