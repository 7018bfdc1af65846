package dev.mailrun.mail;

import dev.mailrun.mail.ScriptedSmtpServer.Command;
import dev.mailrun.mail.ScriptedSmtpServer.Reply;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A relay that limits its client as Postfix does, over a {@link ScriptedSmtpServer}:
 *
 * <ol>
 *   <li>anvil ({@code smtpd_client_message_rate_limit}, {@code anvil_rate_time_unit}): at most
 *       {@code limit} MAIL FROM in a fixed window of {@code window} on {@code clock}, which starts at
 *       the first MAIL FROM after the last window ended; beyond, {@code 450 4.7.1 Error: too much
 *       mail from 127.0.0.1};</li>
 *   <li>smtpd's error count of a session (4xx and 5xx replies since it last delivered a message):
 *       from {@value #SOFT_ERROR_LIMIT} on ({@code smtpd_soft_error_limit}) every reply comes
 *       {@link #ERROR_SLEEP} late ({@code smtpd_error_sleep_time}); at {@value #HARD_ERROR_LIMIT}
 *       ({@code smtpd_hard_error_limit}) the next MAIL, RCPT or DATA gets {@code 421 4.7.0 Error:
 *       too many errors} and the session ends.</li>
 * </ol>
 * Postfix 3.7 answers exactly so (measured: the tenth refusal in one session comes at once, every
 * reply after it a second late, and the MAIL FROM after the twentieth is answered 421).
 */
public final class AnvilRelay implements AutoCloseable {

    static final int SOFT_ERROR_LIMIT = 10;
    static final int HARD_ERROR_LIMIT = 20;
    static final Duration ERROR_SLEEP = Duration.ofSeconds(1);

    /** One of anvil's windows: when it started, and the MAIL FROMs it accepted and refused. */
    public record Window(Instant start, int accepted, int refused) {}

    private final Clock clock;
    private final int limit;
    private final Duration window;
    private final ScriptedSmtpServer server;
    private final List<Window> windows = new ArrayList<>();
    /**
     * Per session (connection number): its error count now, its too-fast refusals in all, and its
     * envelope (0 none, 1 MAIL accepted, 2 a recipient accepted too).
     */
    private final Map<Integer, int[]> sessions = new HashMap<>();
    private int droppedForErrors;

    private AnvilRelay(Clock clock, int limit, Duration window) {
        this.clock = clock;
        this.limit = limit;
        this.window = window;
        this.server = ScriptedSmtpServer.builder()
                .on("MAIL", this::mail)
                .on("RCPT", this::rcpt)
                .on("DATA", this::data)
                .on("RSET", cmd -> reset(cmd, reply(cmd, Reply.ok())))
                .on("NOOP", cmd -> reply(cmd, Reply.ok()))
                .onMessage(this::delivered)
                .start();
    }

    /** At most {@code limit} messages per {@code window} of {@code clock}. */
    public static AnvilRelay start(Clock clock, int limit, Duration window) {
        return new AnvilRelay(clock, limit, window);
    }

    public int port() {
        return server.port();
    }

    /** The content of every message accepted. */
    public List<String> messages() {
        return server.messages();
    }

    /** Every window so far, in order. */
    public synchronized List<Window> windows() {
        return List.copyOf(windows);
    }

    /** The most too-fast refusals one session received. */
    public synchronized int mostTooFastInOneSession() {
        return sessions.values().stream().mapToInt(s -> s[1]).max().orElse(0);
    }

    /** Sessions ended with 421 for too many errors. */
    public synchronized int droppedForErrors() {
        return droppedForErrors;
    }

    private synchronized Reply mail(Command cmd) {
        Reply tooLate = tooManyErrors(cmd);
        if (tooLate != null) {
            return tooLate;
        }
        Instant now = clock.instant();
        if (windows.isEmpty() || !now.isBefore(windows.get(windows.size() - 1).start().plus(window))) {
            windows.add(new Window(now, 0, 0));
        }
        int last = windows.size() - 1;
        Window w = windows.get(last);
        boolean tooMuch = w.accepted() >= limit;
        windows.set(last, new Window(w.start(), w.accepted() + (tooMuch ? 0 : 1), w.refused() + (tooMuch ? 1 : 0)));
        if (tooMuch) {
            session(cmd)[1]++;
            session(cmd)[2] = 0;
            return reply(cmd, Reply.of(450, "4.7.1 Error: too much mail from 127.0.0.1"));
        }
        session(cmd)[2] = 1;
        return reply(cmd, Reply.ok());
    }

    /** As Postfix: a RCPT after a refused MAIL, or a DATA without a recipient, is an error of its own. */
    private synchronized Reply rcpt(Command cmd) {
        if (session(cmd)[2] == 0) {
            return command(cmd, Reply.of(503, "5.5.1 Error: need MAIL command"));
        }
        session(cmd)[2] = 2;
        return command(cmd, Reply.ok());
    }

    private synchronized Reply data(Command cmd) {
        int envelope = session(cmd)[2];
        session(cmd)[2] = 0;
        return command(cmd, envelope == 2 ? Reply.of(354, "end with <CRLF>.<CRLF>")
                : Reply.of(503, "5.5.1 Error: need RCPT command"));
    }

    private synchronized Reply reset(Command cmd, Reply reply) {
        session(cmd)[2] = 0;
        return reply;
    }

    private synchronized Reply command(Command cmd, Reply reply) {
        Reply tooLate = tooManyErrors(cmd);
        return tooLate != null ? tooLate : reply(cmd, reply);
    }

    private synchronized Reply delivered(Command cmd) {
        session(cmd)[0] = 0;
        return Reply.of(250, "2.0.0 queued");
    }

    private Reply tooManyErrors(Command cmd) {
        if (session(cmd)[0] < HARD_ERROR_LIMIT) {
            return null;
        }
        droppedForErrors++;
        return Reply.of(421, "4.7.0 relay.test Error: too many errors").thenDrop();
    }

    /** {@code reply}, late once the session has made too many errors, and counted if it is one. */
    private synchronized Reply reply(Command cmd, Reply reply) {
        int[] session = session(cmd);
        boolean late = session[0] >= SOFT_ERROR_LIMIT;
        if (reply.code() >= 400) {
            session[0]++;
        }
        return late ? reply.after(ERROR_SLEEP) : reply;
    }

    private int[] session(Command cmd) {
        return sessions.computeIfAbsent(cmd.connection(), c -> new int[3]);
    }

    @Override
    public void close() {
        server.close();
    }
}
