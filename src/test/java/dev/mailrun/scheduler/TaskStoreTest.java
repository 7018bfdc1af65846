package dev.mailrun.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class TaskStoreTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant TEN = Instant.parse("2026-06-01T10:00:00Z");

    private final TaskStore store = new TaskStore(db.dataSource());

    @Test
    void a_created_task_reads_back_with_its_whole_definition() throws Exception {
        Task created = store.create(NewTask.of("newsletter", "campaign", Duration.ofMinutes(5), TEN)
                .withDescription("weekly newsletter").withMisfirePolicy(MisfirePolicy.SKIP_TO_NEXT_SLOT)
                .withMisfireThreshold(Duration.ofMinutes(2)).withMetadata(Metadata.empty().put("campaignId", 7)));

        assertThat(store.find("newsletter")).contains(created);
        assertThat(store.find(created.id())).contains(created);
        assertThat(created.description()).isEqualTo("weekly newsletter");
        assertThat(created.handler()).isEqualTo("campaign");
        assertThat(created.interval()).isEqualTo(Duration.ofMinutes(5));
        assertThat(created.misfirePolicy()).isEqualTo(MisfirePolicy.SKIP_TO_NEXT_SLOT);
        assertThat(created.misfireThreshold()).isEqualTo(Duration.ofMinutes(2));
        assertThat(created.metadata().getLong("campaignId")).hasValue(7);
        assertThat(created.nextRunAt()).isEqualTo(TEN);
        assertThat(created.enabled()).isTrue();
        assertThat(created.liveRun()).isEmpty();
        assertThat(created.lastError()).isEmpty();
    }

    @Test
    void creating_a_task_twice_fails_while_upsert_changes_only_the_definition() throws Exception {
        store.create(NewTask.of("cleanup", "sweep", Duration.ofMinutes(5), TEN)
                .withMetadata(Metadata.empty().put("cursor", 3)));
        assertThatThrownBy(() -> store.create(NewTask.of("cleanup", "sweep", Duration.ofMinutes(5), TEN)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("already exists");

        Task updated = store.upsert(NewTask.of("cleanup", "sweep-v2", Duration.ofMinutes(10), TEN.plusSeconds(3600)));

        assertThat(updated.handler()).isEqualTo("sweep-v2");
        assertThat(updated.interval()).isEqualTo(Duration.ofMinutes(10));
        assertThat(updated.nextRunAt()).isEqualTo(TEN);
        assertThat(updated.metadata().getLong("cursor")).hasValue(3);
    }

    @Test
    void tasks_can_be_disabled_re_enabled_and_told_to_run_now() throws Exception {
        store.create(NewTask.of("toggle", "x", Duration.ofMinutes(5), TEN));

        assertThat(store.setEnabled("toggle", false)).isTrue();
        assertThat(store.find("toggle").orElseThrow().enabled()).isFalse();
        assertThat(store.setEnabled("toggle", true)).isTrue();
        assertThat(store.setNextRunAt("toggle", TEN.minusSeconds(1))).isTrue();
        assertThat(store.find("toggle").orElseThrow().nextRunAt()).isEqualTo(TEN.minusSeconds(1));
        assertThat(store.setEnabled("no-such-task", false)).isFalse();
        assertThat(store.recentRuns("no-such-task", 5)).isEmpty();
        assertThat(store.list()).extracting(Task::name).contains("toggle");
    }

    @Test
    void a_task_is_removed_with_its_history_unless_a_run_holds_it() throws Exception {
        store.create(NewTask.of("held", "x", Duration.ofMinutes(5), TEN));
        store.create(NewTask.of("idle", "x", Duration.ofMinutes(5), TEN));
        try (var c = db.dataSource().getConnection(); var ps = c.prepareStatement(
                "UPDATE task SET run_token = 'r-1', lease_until = UTC_TIMESTAMP(3) WHERE name = 'held'")) {
            ps.executeUpdate();
        }

        assertThat(store.remove("held")).isEqualTo(TaskStore.Removal.RUN_IN_PROGRESS);
        assertThat(store.remove("idle")).isEqualTo(TaskStore.Removal.REMOVED);
        assertThat(store.remove("idle")).isEqualTo(TaskStore.Removal.NO_SUCH_TASK);
        assertThat(store.find("held")).isPresent();
        assertThat(store.find("idle")).isEmpty();
    }
}
