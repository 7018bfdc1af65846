package dev.mailrun.campaign.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.db.Transactions;
import dev.mailrun.testing.TestDatabase;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The erasure hash as the database stores it and as the suppression check makes it, held to the same
 * bytes; and the check finding erased addresses before and after it has seen the salt.
 */
class ErasedAddressHashTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant NOW = Instant.parse("2026-12-07T10:00:00Z");

    @Test
    void the_check_finds_erased_and_listed_addresses_whether_or_not_it_has_seen_the_salt() throws Exception {
        SuppressionTable fresh = new SuppressionTable();
        Transactions.inTransaction(db.dataSource(), c -> {
            // Before any erasure: no salt, nothing erased; the suppression list still answers.
            new SuppressionTable().add(c, List.of(new SuppressionTable.Entry("listed@example.com", SuppressionReason.MANUAL, "test")), NOW);
            assertThat(fresh.suppressedAmong(c, List.of("listed@example.com", "jürgen@exämple.de", "other@example.com")))
                    .containsExactly("listed@example.com");
            return null;
        });
        ErasedAddressTable erased = new ErasedAddressTable(new SecureRandom());
        Transactions.inTransaction(db.dataSource(), c -> {
            erased.add(c, "jürgen@exämple.de", NOW);
            erased.add(c, "plain@example.org", NOW);
            return null;
        });
        List<String> keys = List.of("listed@example.com", "jürgen@exämple.de", "plain@example.org", "other@example.com");
        Set<String> expected = Set.of("listed@example.com", "jürgen@exämple.de", "plain@example.org");
        Transactions.inTransaction(db.dataSource(), c -> {
            // The first finds the salt; the second already holds it; a new table reads it again.
            assertThat(fresh.suppressedAmong(c, keys)).isEqualTo(expected);
            assertThat(fresh.suppressedAmong(c, keys)).isEqualTo(expected);
            assertThat(new SuppressionTable().suppressedAmong(c, keys)).isEqualTo(expected);
            assertThat(fresh.suppressedAmong(c, List.of("erased-7@" + SuppressionTable.ERASED_DOMAIN, "other@example.com")))
                    .containsExactly("erased-7@" + SuppressionTable.ERASED_DOMAIN);
            return null;
        });
    }

    @Test
    void the_hash_made_here_is_the_databases_sha2_of_the_salt_and_the_address_in_utf8() throws Exception {
        ErasedAddressTable erased = new ErasedAddressTable(new SecureRandom());
        String key = "zoë.ñandú@bücher.example";
        Transactions.inTransaction(db.dataSource(), c -> {
            erased.add(c, key, NOW);
            return null;
        });
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT salt_hex, SHA2(CONCAT(CONVERT(salt_hex USING utf8mb4), ?), 256) FROM erasure_key WHERE id = 1")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(HexFormat.of().formatHex(ErasedAddressTable.hash(rs.getString(1), key))).isEqualTo(rs.getString(2));
            }
        }
    }
}
