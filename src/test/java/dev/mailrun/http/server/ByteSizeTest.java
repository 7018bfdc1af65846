package dev.mailrun.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ByteSizeTest {

    @Test
    void limits_read_in_binary_units_to_a_tenth() {
        assertThat(ByteSize.of(1_073_741_824L)).isEqualTo("1 GiB");
        assertThat(ByteSize.of(16_777_216L)).isEqualTo("16 MiB");
        assertThat(ByteSize.of(65_536L)).isEqualTo("64 KiB");
        assertThat(ByteSize.of(1_536L)).isEqualTo("1.5 KiB");
        assertThat(ByteSize.of(2_147_483_647L)).isEqualTo("1.9 GiB");
        assertThat(ByteSize.of(1_000L)).isEqualTo("1000 bytes");
        assertThat(ByteSize.of(1L)).isEqualTo("1 byte");
    }
}
