package dev.mailrun.campaign.access;

import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.store.ApiTokenTable;
import dev.mailrun.db.Transactions;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * API tokens: created with a name and scopes (the token is shown once and stored only as its
 * SHA-256), listed, revoked, and checked on every API request.
 *
 * <p>A request's token is hashed and looked up by its hash; the stored hash is then compared with
 * {@link MessageDigest#isEqual} (constant time). A token is 32 random bytes, so the hash lookup tells
 * an attacker nothing a guess could use.
 */
public final class ApiTokens {

    /** Token names: what the audit trail and {@code api-token list} show. */
    public static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");
    /** Every token starts so, which lets secret scanners recognise a leaked one. */
    static final String PREFIX = "mrt_";
    static final int RANDOM_BYTES = 32;
    /** Last use is written at most this often per token. */
    static final Duration TOUCH_EVERY = Duration.ofMinutes(1);

    /** A token as {@code api-token list} shows it: never the token. */
    public record Listed(String name, Set<ApiScope> scopes, Instant createdAt, Optional<Instant> lastUsedAt,
                         Optional<Instant> revokedAt) {}

    /** Who a valid token belongs to and what it may do. */
    public record Caller(String name, Set<ApiScope> scopes) {}

    private final DataSource dataSource;
    private final Clock clock;
    private final SecureRandom random;
    private final ApiTokenTable table = new ApiTokenTable();

    public ApiTokens(DataSource dataSource, Clock clock, SecureRandom random) {
        this.dataSource = dataSource;
        this.clock = clock;
        this.random = random;
    }

    /**
     * Creates a token and returns it: the only time it is ever seen.
     *
     * @throws CampaignException when the name is taken (also by a revoked token) or not a valid name
     */
    public String create(String name, Set<ApiScope> scopes) throws SQLException {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new CampaignException("token name must be 1-64 of a-z, 0-9, '.', '_' and '-', starting with a letter or digit");
        }
        if (scopes.isEmpty()) {
            throw new CampaignException("a token needs at least one scope");
        }
        byte[] bytes = new byte[RANDOM_BYTES];
        random.nextBytes(bytes);
        String token = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        Instant now = clock.instant();
        boolean created = Transactions.inTransaction(dataSource, c -> table.insert(c, name, sha256(token), ApiScope.join(scopes), now));
        if (!created) {
            throw new CampaignException("a token named " + name + " exists already (revoked names are not reused)");
        }
        return token;
    }

    public List<Listed> list() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return table.list(c).stream().map(s -> new Listed(s.name(), ApiScope.parseList(s.scopes()), s.createdAt(),
                    s.lastUsedAt(), s.revokedAt())).toList();
        }
    }

    /** @throws CampaignException when there is no live token of that name */
    public void revoke(String name) throws SQLException {
        Instant now = clock.instant();
        if (!Transactions.inTransaction(dataSource, c -> table.revoke(c, name, now))) {
            throw new CampaignException("no live token named " + name);
        }
    }

    /** The caller a presented token belongs to; empty when it is unknown or revoked. */
    public Optional<Caller> authenticate(String presented) throws SQLException {
        byte[] hash = sha256(presented);
        Instant now = clock.instant();
        try (Connection c = dataSource.getConnection()) {
            Optional<ApiTokenTable.Stored> row = table.bySha256(c, hash);
            if (row.isEmpty() || !MessageDigest.isEqual(hash, row.get().sha256()) || row.get().revokedAt().isPresent()) {
                return Optional.empty();
            }
            table.touch(c, row.get().id(), now, now.minus(TOUCH_EVERY));
            return Optional.of(new Caller(row.get().name(), ApiScope.parseList(row.get().scopes())));
        }
    }

    /**
     * The live token of this name as a caller, without its secret: what the console gives a user its
     * reverse proxy authenticated (console.proxy-token). Empty when there is none or it is revoked.
     */
    public Optional<Caller> live(String name) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return table.byName(c, name).filter(row -> row.revokedAt().isEmpty())
                    .map(row -> new Caller(row.name(), ApiScope.parseList(row.scopes())));
        }
    }

    static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
