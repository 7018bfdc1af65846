package dev.mailrun.campaign.suppression;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What bounds one import statement: lines read (rejected ones too) and the bytes of the values it binds. */
class ImportBatchTest {

    @Test
    void a_batch_is_full_at_its_line_limit_counting_rejected_and_repeated_lines() {
        ImportBatch batch = new ImportBatch(new ImportBatch.Limits(3, 1 << 20), "import:list.csv");
        batch.add(2, "a@example.com", "a@example.com");
        batch.reject(3, "nope", SuppressionRejectReason.INVALID_SYNTAX, "invalid");
        assertThat(batch.full()).isFalse();

        batch.add(4, "A@example.com", "a@example.com");

        assertThat(batch.full()).isTrue();
        assertThat(batch.rows()).hasSize(1);
        assertThat(batch.lines()).extracting(ImportBatch.Line::line).containsExactly(2L, 3L, 4L);
        assertThat(batch.lines().get(2)).isInstanceOf(ImportBatch.Duplicate.class);
    }

    @Test
    void a_batch_is_full_before_the_next_row_could_take_its_values_past_the_byte_limit() {
        String source = "import:list.csv";
        int worstRow = 254 + source.length() + ImportBatch.ROW_OVERHEAD_BYTES;
        ImportBatch batch = new ImportBatch(new ImportBatch.Limits(1_000, 10 * worstRow), source);
        int rows = 0;
        while (!batch.full()) {
            String key = "reader" + rows + "@example.com";
            batch.add(rows + 2, key, key);
            rows++;
        }

        // Short addresses: more rows than ten worst-case ones, and never a byte over the limit with one more.
        assertThat(rows).isGreaterThan(10);
        assertThat(batch.valueBytes()).isLessThanOrEqualTo(10L * worstRow);
        assertThat(batch.valueBytes() + worstRow).isGreaterThan(10L * worstRow);
    }
}
