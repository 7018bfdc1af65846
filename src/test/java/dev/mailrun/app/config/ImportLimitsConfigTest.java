package dev.mailrun.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.campaign.importing.ImportSettings;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ImportLimitsConfigTest {

    @Test
    void the_import_size_limits_default_to_64_kib_a_field_and_256_kib_a_row() {
        ImportSettings s = ConfigLoader.load(Optional.empty(), Map.of()).imports().settings();
        assertThat(s.maxFieldBytes()).isEqualTo(65_536);
        assertThat(s.maxRowBytes()).isEqualTo(262_144);
        assertThat(s.batchSize()).isEqualTo(ImportSettings.DEFAULT_BATCH);
    }

    @Test
    void the_import_size_limits_are_configurable_within_their_range_and_a_field_may_not_exceed_a_row() {
        ImportSettings s = ConfigLoader.load(Optional.empty(),
                Map.of("MAILRUN_IMPORT_MAX_FIELD_BYTES", "2048", "MAILRUN_IMPORT_MAX_ROW_BYTES", "8192")).imports().settings();
        assertThat(s.maxFieldBytes()).isEqualTo(2_048);
        assertThat(s.maxRowBytes()).isEqualTo(8_192);
        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of("MAILRUN_IMPORT_MAX_ROW_BYTES", "100")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("configuration key import.max-row-bytes: must be between 1024 and 4194304, got '100'");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of("MAILRUN_IMPORT_MAX_ROW_BYTES", "4096")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("configuration key import.max-field-bytes: must not exceed import.max-row-bytes (4096), got 65536");
    }
}
