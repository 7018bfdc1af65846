package dev.mailrun.db;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JdbcUrlsTest {

    @Test
    void a_password_in_the_authority_is_masked_and_the_rest_kept() {
        assertThat(JdbcUrls.masked("jdbc:mysql://mailer:s3cr3t@db.internal:3306/mailrun?useSSL=true"))
                .isEqualTo("jdbc:mysql://mailer:***@db.internal:3306/mailrun?useSSL=true");
        assertThat(JdbcUrls.masked("jdbc:mariadb://mailer:s3cr3t@db/mailrun")).isEqualTo("jdbc:mariadb://mailer:***@db/mailrun");
    }

    @Test
    void password_properties_are_masked_whatever_their_case_or_place() {
        assertThat(JdbcUrls.masked("jdbc:mysql://db/m?user=mailer&password=s3cr3t&useSSL=true"))
                .isEqualTo("jdbc:mysql://db/m?user=mailer&password=***&useSSL=true");
        assertThat(JdbcUrls.masked("jdbc:mysql://db/m?PWD=s3cr3t")).isEqualTo("jdbc:mysql://db/m?PWD=***");
        assertThat(JdbcUrls.masked("jdbc:mysql://db/m?password1=a1&password2=b2&trustCertificateKeyStorePassword=c3"))
                .isEqualTo("jdbc:mysql://db/m?password1=***&password2=***&trustCertificateKeyStorePassword=***");
        assertThat(JdbcUrls.masked("jdbc:mysql://address=(host=db)(port=3306)(user=u)(password=s3cr3t)/m"))
                .isEqualTo("jdbc:mysql://address=(host=db)(port=3306)(user=u)(password=***)/m");
    }

    @Test
    void every_host_of_a_multi_host_url_is_masked() {
        assertThat(JdbcUrls.masked("jdbc:mysql://a:p1@h1:3306,b:p2@h2:3306/m"))
                .isEqualTo("jdbc:mysql://a:***@h1:3306,b:***@h2:3306/m");
    }

    @Test
    void user_info_that_cannot_be_split_hides_everything_before_the_host() {
        assertThat(JdbcUrls.masked("jdbc:mysql://u:p,w@db/m")).isEqualTo("jdbc:mysql://***@db/m");
        assertThat(JdbcUrls.masked("jdbc:mysql://u:p@w@db/m")).isEqualTo("jdbc:mysql://***@db/m");
    }

    @Test
    void urls_quoted_inside_a_message_are_masked_and_plain_urls_are_unchanged() {
        assertThat(JdbcUrls.masked("cannot connect to the database at jdbc:mysql://u:s3cr3t@db/m?pwd=x (refused)"))
                .isEqualTo("cannot connect to the database at jdbc:mysql://u:***@db/m?pwd=*** (refused)");
        assertThat(JdbcUrls.masked("jdbc:mysql://db:3306/mailrun")).isEqualTo("jdbc:mysql://db:3306/mailrun");
        assertThat(JdbcUrls.masked("jdbc:mysql://mailer@db/m")).isEqualTo("jdbc:mysql://mailer@db/m");
        String message = "at jdbc:mysql://u:s3cr3t@db/m?pwd=a:b: refused";
        assertThat(JdbcUrls.masked(message)).isEqualTo("at jdbc:mysql://u:***@db/m?pwd=***: refused");
        assertThat(JdbcUrls.masked(JdbcUrls.masked(message))).as("masking twice").isEqualTo(JdbcUrls.masked(message));
        assertThat(JdbcUrls.masked("got 'mysql://u:s3cr3t@db/m'")).isEqualTo("got 'mysql://u:***@db/m'");
        assertThat(JdbcUrls.masked(null)).isNull();
    }

    @Test
    void the_drivers_replication_load_balancing_and_dns_srv_urls_are_accepted_and_masked_alike() {
        for (String scheme : new String[] {"jdbc:mysql:replication://", "jdbc:mysql:loadbalance://", "jdbc:mysql+srv://",
                "jdbc:mysql:replication+srv://", "jdbc:mysql:loadbalance+srv://"}) {
            String url = scheme + "mailer:s3cr3t@db1:3306,mailer:s3cr3t@db2:3306/mailrun?password=s3cr3t";
            assertThat(JdbcUrls.forDriver(url)).as(scheme).contains(url);
            assertThat(JdbcUrls.masked(url)).as(scheme)
                    .isEqualTo(scheme + "mailer:***@db1:3306,mailer:***@db2:3306/mailrun?password=***");
        }
    }

    @Test
    void a_mariadb_url_goes_to_the_driver_as_mysql_and_other_schemes_are_refused() {
        assertThat(JdbcUrls.forDriver("jdbc:mariadb://db/m")).contains("jdbc:mysql://db/m");
        assertThat(JdbcUrls.forDriver("jdbc:mysql://db/m")).contains("jdbc:mysql://db/m");
        assertThat(JdbcUrls.forDriver("mysql://db/m")).isEmpty();
        assertThat(JdbcUrls.forDriver("jdbc:postgresql://db/m")).isEmpty();
        assertThat(JdbcUrls.forDriver("jdbc:mysqlx://db/m")).isEmpty();
    }
}
