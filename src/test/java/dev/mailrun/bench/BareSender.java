package dev.mailrun.bench;

import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.MimeMessage;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The baseline: the mail library alone. N threads, each with its own connected transport and one
 * message built once, call sendMessage in a loop until {@code total} messages went out between them.
 * No database, no rendering per message. Two forms: the built message as is (encoded again on each
 * send, as the mail API does), and the same message serialised once and parsed back, which is how
 * the pool sends (see {@code WireMessage}).
 */
final class BareSender {

    private BareSender() {}

    /**
     * Whether the bare loop sets {@code mail.smtp.writetimeout}, as the pool always does. With it
     * the mail API schedules a timeout on a timer thread of its own for every socket write; without
     * it the bare loop shows what the mail API costs with no write timeout at all.
     */
    static volatile boolean writeTimeout = true;

    /** @return messages per second, timed from the moment all transports are connected */
    static double run(int port, int connections, long total) throws Exception {
        return run(port, connections, total, false);
    }

    /**
     * @param serialized send the message as parsed back from its own bytes (written once), which
     *                   the mail API writes out in bulk instead of encoding it again on every send
     */
    static double run(int port, int connections, long total, boolean serialized) throws Exception {
        AtomicLong next = new AtomicLong();
        CountDownLatch connected = new CountDownLatch(connections);
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        SampleMessages samples = new SampleMessages(Clock.systemUTC());
        for (int t = 0; t < connections; t++) {
            int index = t;
            Thread thread = new Thread(() -> {
                Transport transport = null;
                try {
                    Session session = Session.getInstance(properties(port));
                    MimeMessage built = samples.outgoing(index).build(session);
                    MimeMessage message = serialized ? reparsed(session, built) : built;
                    transport = session.getTransport("smtp");
                    transport.connect("127.0.0.1", port, null, null);
                    connected.countDown();
                    go.await();
                    while (next.getAndIncrement() < total) {
                        transport.sendMessage(message, message.getAllRecipients());
                    }
                } catch (Exception e) {
                    failures.add(e);
                    connected.countDown();
                } finally {
                    if (transport != null) {
                        try {
                            transport.close();
                        } catch (MessagingException e) {
                            // closing anyway
                        }
                    }
                }
            }, "bare-" + t);
            threads.add(thread);
            thread.start();
        }
        connected.await();
        long start = System.nanoTime();
        go.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        long nanos = System.nanoTime() - start;
        if (!failures.isEmpty()) {
            throw new IllegalStateException("bare sending failed", failures.get(0));
        }
        return total / (nanos / 1e9);
    }

    private static MimeMessage reparsed(Session session, MimeMessage built) throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        built.writeTo(bytes);
        return new MimeMessage(session, new java.io.ByteArrayInputStream(bytes.toByteArray()));
    }

    static Properties properties(int port) {
        Properties p = new Properties();
        p.setProperty("mail.transport.protocol", "smtp");
        p.setProperty("mail.smtp.host", "127.0.0.1");
        p.setProperty("mail.smtp.port", Integer.toString(port));
        p.setProperty("mail.host", "mailrun.bench");
        p.setProperty("mail.smtp.localhost", "mailrun.bench");
        p.setProperty("mail.smtp.connectiontimeout", "10000");
        p.setProperty("mail.smtp.timeout", "10000");
        if (writeTimeout) {
            p.setProperty("mail.smtp.writetimeout", "10000");
        }
        p.setProperty("mail.smtp.quitwait", "false");
        return p;
    }
}
