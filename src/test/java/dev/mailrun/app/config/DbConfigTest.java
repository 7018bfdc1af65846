package dev.mailrun.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DbConfigTest {

    private static DbConfig withUrl(String url) {
        return new DbConfig(Optional.of(url), "root", "", 10, Path.of("data"));
    }

    @Test
    void replication_load_balancing_and_dns_srv_urls_are_accepted_and_given_to_the_driver_as_written() {
        for (String url : new String[] {"jdbc:mysql:replication://m:3306,r1:3306/mailrun",
                "jdbc:mysql:loadbalance://a:3306,b:3306/mailrun", "jdbc:mysql+srv://_mysql._tcp.db.example/mailrun"}) {
            assertThat(withUrl(url).jdbcUrl()).as(url).contains(url);
        }
        assertThat(withUrl("jdbc:mariadb://db/m").jdbcUrl()).contains("jdbc:mysql://db/m");
    }

    @Test
    void another_scheme_is_one_line_naming_the_key_with_the_password_masked() {
        assertThatThrownBy(() -> withUrl("jdbc:postgresql://u:s3cr3t@db/m"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("configuration key db.url: must start with jdbc:mysql:// (or jdbc:mysql:replication://,"
                        + " jdbc:mysql:loadbalance://, jdbc:mysql+srv://), got 'jdbc:postgresql://u:***@db/m'");
    }
}
