package dev.mailrun.http.api;

import dev.mailrun.campaign.access.ApiTokens;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.mail.Secret;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.SQLException;
import java.util.EnumSet;
import java.util.Optional;

/**
 * Who a request comes from: {@code Authorization: Bearer <token>} with an API token, or with
 * {@code admin.token}, which counts as a token named {@code admin.token} with the {@code admin} scope.
 * The admin token is compared as SHA-256 digests in constant time; API tokens by {@link ApiTokens}.
 * The console's login asks the same question of a token typed into its form ({@link #authenticateToken}).
 */
public final class Authenticator {

    static final String ADMIN_TOKEN = "admin.token";
    private static final String SCHEME = "Bearer ";
    /** A longer header is no token of ours; it is refused before anything is hashed or looked up. */
    private static final int MAX_TOKEN = 512;

    private final ApiTokens tokens;
    private final Optional<byte[]> adminToken;

    public Authenticator(ApiTokens tokens, Optional<Secret> adminToken) {
        this.tokens = tokens;
        this.adminToken = adminToken.map(s -> sha256(s.reveal()));
    }

    Optional<ApiTokens.Caller> authenticate(String authorization) throws SQLException {
        if (authorization == null || !authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            return Optional.empty();
        }
        return authenticateToken(authorization.substring(SCHEME.length()));
    }

    /** The caller a bare token (no scheme) stands for; empty for no valid token. */
    public Optional<ApiTokens.Caller> authenticateToken(String token) throws SQLException {
        String presented = token.strip();
        if (presented.isEmpty() || presented.length() > MAX_TOKEN) {
            return Optional.empty();
        }
        if (adminToken.isPresent() && MessageDigest.isEqual(adminToken.get(), sha256(presented))) {
            return Optional.of(new ApiTokens.Caller(ADMIN_TOKEN, EnumSet.of(ApiScope.ADMIN)));
        }
        return tokens.authenticate(presented);
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
