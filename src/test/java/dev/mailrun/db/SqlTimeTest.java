package dev.mailrun.db;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SqlTimeTest {

    private static final DateTimeFormatter GENERAL = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS");

    @Test
    void the_literal_is_what_the_general_formatter_writes_in_utc() {
        SplittableRandom random = new SplittableRandom(7);
        long from = Instant.parse("0900-01-01T00:00:00Z").getEpochSecond();
        long to = Instant.parse("+10100-12-31T23:59:59Z").getEpochSecond();
        for (int i = 0; i < 100_000; i++) {
            Instant t = Instant.ofEpochSecond(random.nextLong(from, to), random.nextInt(1_000_000_000));
            assertThat(SqlTime.literal(t)).as(t.toString()).isEqualTo(GENERAL.format(LocalDateTime.ofInstant(t, ZoneOffset.UTC)));
        }
    }

    @Test
    void edges_of_the_day_the_year_and_the_millisecond() {
        for (String t : new String[] {"1000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z", "2026-02-28T23:59:59.9995Z",
                "2024-02-29T12:00:00.001Z", "1970-01-01T00:00:00Z", "0999-12-31T23:59:59.999Z", "+10000-01-01T00:00:00Z"}) {
            Instant i = Instant.parse(t);
            assertThat(SqlTime.literal(i)).as(t).isEqualTo(GENERAL.format(LocalDateTime.ofInstant(i, ZoneOffset.UTC)));
        }
        assertThat(SqlTime.literal(Instant.parse("2026-12-07T09:05:03.042Z"))).isEqualTo("2026-12-07 09:05:03.042");
    }
}
