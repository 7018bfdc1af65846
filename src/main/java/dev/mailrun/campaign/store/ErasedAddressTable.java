package dev.mailrun.campaign.store;

import dev.mailrun.db.SqlTime;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HexFormat;

/**
 * The erased addresses' hashes ({@code erased_address}) and the salt they are made with
 * ({@code erasure_key}, one row): SHA-256 of the salt as 64 hex digits followed by the address
 * lower-cased, over UTF-8. {@link #hash} is that function, for the erasure and the suppression check
 * ({@link SuppressionTable#suppressedAmong}) alike; {@code ErasedAddressHashTest} holds it to the
 * database's {@code SHA2}, so a hash stored by an earlier version is found the same way.
 */
public final class ErasedAddressTable {

    private final SecureRandom random;

    public ErasedAddressTable(SecureRandom random) {
        this.random = random;
    }

    /** SHA-256 of the salt's hex digits followed by the key, as UTF-8: what {@link #add} stores for {@code key}. */
    public static byte[] hash(String saltHex, String key) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(saltHex.getBytes(StandardCharsets.UTF_8));
            return sha.digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /**
     * Records the address's hash, making the installation's salt first if this is the first erasure.
     * The hash is made here, not by the database's {@code SHA2(CONCAT(salt_hex, ?))}: the salt column
     * is ASCII, and the database refused to concatenate it with an address that is not (an address
     * with a non-ASCII character could not be erased).
     */
    public void add(Connection c, String key, Instant now) throws SQLException {
        byte[] salt = new byte[32];
        random.nextBytes(salt);
        try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO erasure_key (id, salt_hex) VALUES (1, ?)")) {
            ps.setString(1, HexFormat.of().formatHex(salt));
            ps.executeUpdate();
        }
        String saltHex;
        try (PreparedStatement ps = c.prepareStatement("SELECT salt_hex FROM erasure_key WHERE id = 1");
             ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                throw new SQLException("erasure_key has no salt after it was made");
            }
            saltHex = rs.getString(1);
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO erased_address (address_hash, erased_at) VALUES (?, ?)")) {
            ps.setBytes(1, hash(saltHex, key));
            SqlTime.set(ps, 2, now);
            ps.executeUpdate();
        }
    }
}
