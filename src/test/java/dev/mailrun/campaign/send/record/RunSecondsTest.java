package dev.mailrun.campaign.send.record;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.send.scope.Tables;
import dev.mailrun.campaign.store.RunSecondTable;
import dev.mailrun.campaign.store.RunSecondTable.Cpu;
import dev.mailrun.campaign.store.RunSecondTable.Second;
import dev.mailrun.db.Transactions;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a run writes of its seconds for status (campaign_run_second): its sending time from its
 * first message to its last, its waits on the database counted once however many overlap, and the
 * CPU reading of each write. A real database, an injected clock.
 */
class RunSecondsTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");
    private static final Cpu BUSY = new Cpu(Optional.of(0.5), Optional.of(0.95), Optional.of(2.5), 2);

    private final SettableClock clock = new SettableClock(T0);
    private final Tables tables = Tables.on(db.dataSource());
    private final RunSecondTable table = new RunSecondTable();

    @Test
    void sending_runs_from_the_first_message_to_the_last_and_overlapping_waits_count_once_after_the_first_message()
            throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "Seconds");
        Transactions.inTransaction(db.dataSource(), c -> {
            table.add(c, id, List.of(new Second(T0.minus(Duration.ofMinutes(11)), 1000, 0, Optional.empty())));
            return null;
        });
        RunSeconds seconds = new RunSeconds(id, clock, clock::nanoTime, () -> BUSY);

        // The run's first claim: its start, which the time between runs holds, not a wait of its sending.
        seconds.begins();
        clock.advance(Duration.ofMillis(300));
        seconds.ends();
        clock.advance(Duration.ofMillis(200));
        seconds.messageSent();                          // 10:00:00.5, the first message
        clock.advance(Duration.ofMillis(700));
        seconds.begins();                               // 1.2: a connection waits for its mark
        clock.advance(Duration.ofMillis(300));
        seconds.begins();                               // 1.5: and the run for its claim
        clock.advance(Duration.ofMillis(400));
        seconds.ends();
        clock.advance(Duration.ofMillis(300));
        seconds.ends();                                 // 2.2: 1 s of waiting, 0.8 s in the first second
        seconds.messageSent();                          // 2.2, the last message
        seconds.writeIfDue(tables);
        clock.advance(Duration.ofMillis(1500));
        seconds.writeIfDue(tables);                     // 3.7: counts the run as sending until now
        clock.advance(Duration.ofMillis(300));
        seconds.close(tables);                          // 4.0: takes back 2.2–3.7, after the last message

        List<Second> rows = Transactions.inTransaction(db.dataSource(), c -> table.since(c, id, T0.minus(Duration.ofHours(1))));
        assertThat(rows).extracting(Second::second).as("the old second is pruned at the run's end")
                .containsExactly(T0, T0.plusSeconds(1), T0.plusSeconds(2), T0.plusSeconds(3), T0.plusSeconds(4));
        assertThat(rows).extracting(Second::sendingMs).containsExactly(500, 1000, 200, 0, 0);
        assertThat(rows).extracting(Second::dbWaitMs).containsExactly(0, 800, 200, 0, 0);
        assertThat(rows).extracting(s -> s.cpu().isPresent()).as("a reading at each write")
                .containsExactly(false, false, true, true, true);
        assertThat(rows.get(4).cpu()).hasValue(BUSY);
    }
}
