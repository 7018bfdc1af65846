package dev.mailrun.testing;

import java.util.HashMap;
import java.util.Map;

/**
 * The environment a worker or CLI command under test starts with: the test's database, a plain-text
 * SMTP relay on {@code 127.0.0.1:smtpPort} with no rate limit, an unsubscribe secret and a 10-minute
 * tick with a 30 s margin. Returned mutable, so that a test adds (or overrides) what it is about.
 */
public final class WorkerEnv {

    /** The tick interval of the environment. */
    public static final java.time.Duration TICK = java.time.Duration.ofMinutes(10);

    public static final String UNSUBSCRIBE_SECRET = "a-test-secret-that-is-long-enough-0123456789";

    private WorkerEnv() {}

    public static Map<String, String> of(TestDatabase db, int smtpPort) {
        Map<String, String> env = new HashMap<>();
        env.put("MAILRUN_DB_URL", db.url());
        env.put("MAILRUN_DB_USER", db.user());
        env.put("MAILRUN_DB_PASSWORD", db.password());
        env.put("MAILRUN_SMTP_HOST", "127.0.0.1");
        env.put("MAILRUN_SMTP_PORT", Integer.toString(smtpPort));
        env.put("MAILRUN_SMTP_TLS", "none");
        env.put("MAILRUN_SMTP_RATE", "0");
        env.put("MAILRUN_SMTP_HELO_NAME", "mailrun.test");
        env.put("MAILRUN_UNSUBSCRIBE_SECRET", UNSUBSCRIBE_SECRET);
        env.put("MAILRUN_UNSUBSCRIBE_BASE_URL", "https://unsubscribe.sender.example");
        env.put("MAILRUN_TICK_INTERVAL", TICK.toMinutes() + "m");
        env.put("MAILRUN_TICK_SAFETY_MARGIN", "30s");
        return env;
    }
}
