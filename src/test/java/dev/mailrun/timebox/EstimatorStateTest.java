package dev.mailrun.timebox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EstimatorStateTest {

    private static final EstimatorState LEARNED = new EstimatorState(42, 9.75, 1.125, 17);
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void state_should_survive_a_round_trip_through_a_map() {
        assertThat(EstimatorState.fromMap(LEARNED.toMap())).isEqualTo(LEARNED);
    }

    @Test
    void state_should_survive_a_round_trip_through_json_text_as_a_map() throws Exception {
        String text = json.writeValueAsString(LEARNED.toMap());
        Map<String, Object> read = json.readValue(text, new TypeReference<Map<String, Object>>() { });

        assertThat(read.get("samples")).isInstanceOf(Integer.class);
        assertThat(EstimatorState.fromMap(read)).isEqualTo(LEARNED);
    }

    @Test
    void state_should_survive_a_round_trip_through_json_text_as_a_record() throws Exception {
        String text = json.writeValueAsString(LEARNED);

        assertThat(text).isEqualTo("{\"samples\":42,\"perItemMillis\":9.75,\"deviationMillis\":1.125,\"batchCap\":17}");
        assertThat(json.readValue(text, EstimatorState.class)).isEqualTo(LEARNED);
    }

    @Test
    void state_should_read_numbers_of_any_boxed_type() {
        Map<String, Object> mixed = Map.of("samples", 42.0, "perItemMillis", 9.75f, "deviationMillis", 1.125,
                "batchCap", 17L);

        assertThat(EstimatorState.fromMap(mixed)).isEqualTo(LEARNED);
    }

    @Test
    void state_should_start_fresh_from_missing_or_unusable_metadata() {
        Map<String, Object> missingKey = new HashMap<>(LEARNED.toMap());
        missingKey.remove("deviationMillis");
        Map<String, Object> notANumber = new HashMap<>(LEARNED.toMap());
        notANumber.put("perItemMillis", "fast");
        Map<String, Object> negative = new HashMap<>(LEARNED.toMap());
        negative.put("batchCap", -1);

        assertThat(EstimatorState.fromMap(null)).isEqualTo(EstimatorState.initial());
        assertThat(EstimatorState.fromMap(Map.of())).isEqualTo(EstimatorState.initial());
        assertThat(EstimatorState.fromMap(missingKey)).isEqualTo(EstimatorState.initial());
        assertThat(EstimatorState.fromMap(notANumber)).isEqualTo(EstimatorState.initial());
        assertThat(EstimatorState.fromMap(negative)).isEqualTo(EstimatorState.initial());
    }

    @Test
    void first_sample_should_set_the_mean_and_half_of_it_as_deviation() {
        EstimatorState first = EstimatorState.initial().observe(10);

        assertThat(first.perItemMillis()).isEqualTo(10);
        assertThat(first.deviationMillis()).isEqualTo(5);
        assertThat(first.perItemUpperMillis()).isEqualTo(30);
    }

    @Test
    void slow_sample_should_raise_the_upper_bound_at_once_and_let_it_relax_slowly() {
        EstimatorState steady = new EstimatorState(20, 10, 0, 20);

        EstimatorState afterOutlier = steady.observe(50);
        EstimatorState relaxed = afterOutlier.observe(10).observe(10);

        // Mean moves by 1/8 of the error, deviation by 1/4: bound = 15 + 4 × 10 = 55.
        assertThat(afterOutlier.perItemUpperMillis()).isCloseTo(55, offset(1e-9));
        assertThat(relaxed.perItemUpperMillis()).isGreaterThan(30);
    }

    @Test
    void state_should_reject_values_that_are_not_costs() {
        assertThatThrownBy(() -> new EstimatorState(1, Double.NaN, 0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("perItemMillis must be a finite number of milliseconds, 0 or more, was NaN");
        assertThatThrownBy(() -> new EstimatorState(-1, 0, 0, 0))
                .hasMessage("samples must be 0 or more, was -1");
    }

    @Test
    void a_sample_below_the_rates_time_per_item_moves_the_mean_but_widens_no_deviation() {
        EstimatorState learned = new EstimatorState(50, 40, 1, 100);

        EstimatorState floored = learned.observe(23, 40);
        assertThat(floored.perItemMillis()).isCloseTo(40 * 7 / 8.0 + 23 / 8.0, offset(1e-9));
        assertThat(floored.deviationMillis()).isCloseTo(0.75, offset(1e-9));

        assertThat(learned.observe(23).deviationMillis()).as("without a floor").isCloseTo(0.75 + 17 / 4.0, offset(1e-9));
        assertThat(learned.observe(60, 40).deviationMillis()).as("above it, as ever").isCloseTo(0.75 + 20 / 4.0, offset(1e-9));
    }
}
