package dev.mailrun.campaign.store;

import dev.mailrun.db.SqlTime;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HexFormat;

/**
 * The erased addresses' hashes ({@code erased_address}) and the salt they are made with
 * ({@code erasure_key}, one row): SHA-256 of the salt as 64 hex digits followed by the address
 * lower-cased. The database makes every hash ({@code SHA2}), here and in the suppression check
 * ({@link SuppressionTable#suppressedAmong}), so the two can never disagree.
 */
public final class ErasedAddressTable {

    private final SecureRandom random;

    public ErasedAddressTable(SecureRandom random) {
        this.random = random;
    }

    /** Records the address's hash, making the installation's salt first if this is the first erasure. */
    public void add(Connection c, String key, Instant now) throws SQLException {
        byte[] salt = new byte[32];
        random.nextBytes(salt);
        try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO erasure_key (id, salt_hex) VALUES (1, ?)")) {
            ps.setString(1, HexFormat.of().formatHex(salt));
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT IGNORE INTO erased_address (address_hash, erased_at)
                SELECT UNHEX(SHA2(CONCAT(salt_hex, ?), 256)), ? FROM erasure_key WHERE id = 1""")) {
            ps.setString(1, key);
            SqlTime.set(ps, 2, now);
            ps.executeUpdate();
        }
    }
}
