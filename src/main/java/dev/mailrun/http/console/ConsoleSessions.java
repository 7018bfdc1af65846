package dev.mailrun.http.console;

import dev.mailrun.campaign.access.ApiTokens;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.http.server.SessionCheck;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.server.Request;

/**
 * The console's sessions, held in this process's memory: a restart logs everyone out, and each
 * worker process has its own (an operator logs in to the one whose admin port they open). A session
 * ends after {@code idle} without a request, after {@code lifetime} whatever its use, and at logout.
 * The cookie carries only a random id (256 bits); who the session is and its CSRF token stay here.
 * It is the {@link SessionCheck} of {@code /status} too: a session that may read campaigns opens it.
 */
final class ConsoleSessions implements SessionCheck {

    /** Past this many live sessions the oldest-used is dropped: memory stays bounded whatever logs in. */
    static final int MAX_SESSIONS = 1_000;

    private final Clock clock;
    private final Duration idle;
    private final Duration lifetime;
    private final SecureRandom random;
    private final Map<String, ConsoleSession> sessions = new ConcurrentHashMap<>();

    ConsoleSessions(Clock clock, Duration idle, Duration lifetime, SecureRandom random) {
        if (idle.isNegative() || idle.isZero() || lifetime.compareTo(idle) < 0) {
            throw new IllegalArgumentException("the idle timeout must be positive and at most the lifetime");
        }
        this.clock = clock;
        this.idle = idle;
        this.lifetime = lifetime;
        this.random = random;
    }

    /** A new session for {@code caller}, with a new id: an id from before the login never becomes valid. */
    ConsoleSession open(ApiTokens.Caller caller) {
        Instant now = clock.instant();
        sessions.values().removeIf(s -> {
            if (expired(s, now)) {
                forget(s);
                return true;
            }
            return false;
        });
        if (sessions.size() >= MAX_SESSIONS) {
            sessions.values().stream().min((a, b) -> a.lastSeen().compareTo(b.lastSeen()))
                    .ifPresent(oldest -> sessions.remove(oldest.id()));
        }
        ConsoleSession session = new ConsoleSession(randomId(), caller, randomId(), now);
        sessions.put(session.id(), session);
        return session;
    }

    /** The live session of this id, its idle time restarted; empty when unknown or expired. */
    Optional<ConsoleSession> find(String id) {
        if (id == null) {
            return Optional.empty();
        }
        ConsoleSession session = sessions.get(id);
        if (session == null) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        if (expired(session, now)) {
            sessions.remove(id);
            forget(session);
            return Optional.empty();
        }
        session.seen(now);
        return Optional.of(session);
    }

    void close(ConsoleSession session) {
        sessions.remove(session.id());
        forget(session);
    }

    /** A session's rejects file goes with it. */
    private static void forget(ConsoleSession session) {
        ImportPage.Done last = session.lastImport();
        if (last != null) {
            last.rejects().ifPresent(UploadForm::deleteQuietly);
        }
    }

    Duration idle() {
        return idle;
    }

    /** Whether {@code presented} is the login session's CSRF token, compared in constant time. */
    static boolean csrfMatches(ConsoleSession session, String presented) {
        return presented != null && MessageDigest.isEqual(session.csrf().getBytes(StandardCharsets.US_ASCII),
                presented.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public boolean admits(Request request) {
        return find(SessionCookie.read(request).orElse(null)).map(s -> s.may(ApiScope.CAMPAIGNS_READ)).orElse(false);
    }

    private boolean expired(ConsoleSession s, Instant now) {
        return !now.isBefore(s.lastSeen().plus(idle)) || !now.isBefore(s.createdAt().plus(lifetime));
    }

    /** 32 random bytes, base64url: a session id, a CSRF token, a login form's token. */
    String randomId() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
