package dev.mailrun.mail.smtp;

import dev.mailrun.mail.RejectedMessageException;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.message.Mailbox;
import dev.mailrun.mail.message.MessageComposer;
import dev.mailrun.mail.message.MessageFields;
import dev.mailrun.mail.message.MessageIds;
import dev.mailrun.mail.template.RenderedContent;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;

/** Messages and pools for SMTP tests. */
final class TestMail {

    static final Instant NOW = Instant.parse("2030-05-06T07:08:09Z");
    static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    static final Instant FAR = NOW.plus(Duration.ofHours(1));
    static final BooleanSupplier NEVER = () -> false;
    static final MessageIds IDS = new MessageIds("example.com", Secret.of("0123456789abcdef-test-key"));
    static final MessageComposer COMPOSER = new MessageComposer(CLOCK);

    private TestMail() {
    }

    /** A message for {@code to}, keyed and Message-ID'd by {@code key}. */
    record Item(long key, String to, Optional<String> envelopeFrom) implements Outgoing {
        Item(long key, String to) {
            this(key, to, Optional.empty());
        }

        @Override
        public MimeMessage build(Session session) throws RejectedMessageException {
            return COMPOSER.compose(session, fields(key, to),
                    new RenderedContent("Message " + key, "Text " + key + "\n", "<p>Html " + key + "</p>\n"));
        }
    }

    static MessageFields fields(long key, String to) {
        return new MessageFields(new Mailbox("news@example.com", "ACME News"), Optional.empty(),
                Mailbox.of(to), IDS.derive(7, key), "c7.lists.example.com", "Spring",
                "https://example.com/u/tok" + key, "mailto:unsubscribe@example.com?subject=c7.r" + key);
    }

    static List<Item> items(int count) {
        List<Item> items = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            items.add(new Item(i, "user" + i + "@example.org"));
        }
        return items;
    }

    static SmtpSettings settings(int port) {
        return SmtpSettings.of("127.0.0.1", port, TlsMode.NONE, "sender.example.com")
                .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(5));
    }

    /** Sends a batch and collects its results. */
    static List<SendResult> send(SmtpSettings settings, List<? extends Outgoing> batch) {
        try (SmtpPool pool = new SmtpPool(settings, SendRateLimiter.unlimited(), CLOCK)) {
            return send(pool, batch, FAR, NEVER);
        }
    }

    static List<SendResult> send(SmtpPool pool, List<? extends Outgoing> batch, Instant deadline, BooleanSupplier stop) {
        ConcurrentLinkedQueue<SendResult> results = new ConcurrentLinkedQueue<>();
        pool.sendBatch(batch, deadline, stop, results::add);
        List<SendResult> sorted = new ArrayList<>(results);
        sorted.sort((a, b) -> Long.compare(a.key(), b.key()));
        return sorted;
    }
}
