package dev.mailrun.fault;

import dev.mailrun.testing.TestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code mailrun worker} in its own JVM, on this test JVM's class path (target/classes and
 * every dependency), configured by environment variables. Its output goes to a log file under
 * target/fault-logs so a failure can be read afterwards.
 */
final class WorkerProcess implements AutoCloseable {

    private final Process process;
    final Path log;

    private WorkerProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    static Map<String, String> env(TestDatabase db, int smtpPort, String rate) {
        Map<String, String> env = new HashMap<>();
        env.put("MAILRUN_DB_URL", db.url());
        env.put("MAILRUN_DB_USER", db.user());
        env.put("MAILRUN_DB_PASSWORD", db.password());
        env.put("MAILRUN_DB_POOL_SIZE", "6");
        env.put("MAILRUN_SMTP_HOST", "127.0.0.1");
        env.put("MAILRUN_SMTP_PORT", Integer.toString(smtpPort));
        env.put("MAILRUN_SMTP_TLS", "none");
        env.put("MAILRUN_SMTP_RATE", rate);
        env.put("MAILRUN_SMTP_CONNECTIONS", "4");
        env.put("MAILRUN_SMTP_HELO_NAME", "mailrun.test");
        env.put("MAILRUN_UNSUBSCRIBE_SECRET", "a-fault-test-secret-that-is-long-enough-0123456789");
        env.put("MAILRUN_UNSUBSCRIBE_BASE_URL", "https://u.example");
        env.put("MAILRUN_TICK_INTERVAL", "3s");
        env.put("MAILRUN_TICK_SAFETY_MARGIN", "500ms");
        env.put("MAILRUN_TICK_SHUTDOWN_GRACE", "5s");
        env.put("MAILRUN_TEMPLATES_DIR", Path.of("templates").toAbsolutePath().toString());
        return env;
    }

    static WorkerProcess start(String name, Map<String, String> env) throws IOException {
        return start(name, env, "worker");
    }

    /** Another command ({@code serve}, {@code campaign start 7}) the same way, its words as separate arguments. */
    static WorkerProcess start(String name, Map<String, String> env, String... command) throws IOException {
        Path logs = Path.of("target", "fault-logs");
        Files.createDirectories(logs);
        Path log = logs.resolve(name + ".log");
        List<String> commandLine = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Duser.timezone=Asia/Kolkata",
                "-cp", System.getProperty("java.class.path"),
                "dev.mailrun.app.cli.Main"));
        commandLine.addAll(List.of(command));
        ProcessBuilder pb = new ProcessBuilder(commandLine).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("MAILRUN_"));
        pb.environment().putAll(env);
        return new WorkerProcess(pb.start(), log);
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL: no shutdown hook, no flush, no lease release. */
    void kill9() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Waits for a command to end by itself: its exit code, or -1 when it still ran after {@code seconds}. */
    int waitFor(long seconds) throws InterruptedException {
        return process.waitFor(seconds, TimeUnit.SECONDS) ? process.exitValue() : -1;
    }

    /** SIGTERM; true when it exited within the wait. */
    boolean stop() throws InterruptedException {
        process.destroy();
        return process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
