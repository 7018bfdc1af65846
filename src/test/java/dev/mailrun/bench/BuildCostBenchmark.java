package dev.mailrun.bench;

import dev.mailrun.mail.message.MessageComposer;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Clock;

/**
 * The worker's CPU to make one message — render the template, compose the MIME message, write it
 * to bytes — on one thread, with no database and no SMTP.
 *
 * <p>Why: the throughput benchmark's JVM CPU per message mixes this with sending, the JDBC driver
 * and the scheduler, and on a shared machine its wall-clock rows wander. The thread's own CPU time
 * is not disturbed by other processes, so changes to rendering and composing can be paired A/B here
 * with a spread of a few percent.
 *
 * <p>Arguments: {@code --messages 100000 --rounds 5 --accented 0} (the first round warms the JIT and
 * is not counted; {@code --accented} is the percentage of recipients whose name is not ASCII, so
 * that their HTML part goes out quoted-printable).
 */
public final class BuildCostBenchmark {

    private BuildCostBenchmark() {}

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        int messages = args.integer("messages", 100_000);
        int rounds = args.integer("rounds", 5);
        int accented = args.integer("accented", 0);
        if (accented < 0 || accented > 100) {
            throw new IllegalArgumentException("--accented must be a percentage from 0 to 100, got " + accented);
        }
        int attachmentKb = args.integer("attachment-kb", 0);
        if (attachmentKb < 0 || attachmentKb > 10_240) {
            throw new IllegalArgumentException("--attachment-kb must be 0-10240, got " + attachmentKb);
        }
        SampleMessages samples = new SampleMessages(Clock.systemUTC(), attachmentKb * 1024);
        Session session = MessageComposer.newSession("sender.example");
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        System.out.printf("%,d messages per round (template welcome, one merge field), one thread, %d%% of the "
                + "recipients with a name outside ASCII, a campaign attachment of %d KB; the first round warms up and is "
                + "not shown%n%n", messages, accented, attachmentKb);
        System.out.println("| round | µs CPU per message | bytes per message | µs CPU of a bare copy of that many bytes |");
        System.out.println("|---:|---:|---:|---:|");
        for (int round = 0; round <= rounds; round++) {
            Counting out = new Counting();
            long cpu0 = threads.getCurrentThreadCpuTime();
            for (long i = 0; i < messages; i++) {
                MimeMessage m = samples.outgoing(round * (long) messages + i, i % 100 < accented).build(session);
                m.writeTo(out);
            }
            long cpu = threads.getCurrentThreadCpuTime() - cpu0;
            if (round > 0) {
                int size = (int) (out.bytes / messages);
                System.out.printf("| %d | %.1f | %d | %.1f |%n", round, cpu / 1e3 / messages, size,
                        copyCost(threads, size, Math.min(messages, 20_000)));
            }
        }
    }

    /**
     * The CPU of what every message pays at least for its size: a new array of {@code size} bytes
     * filled by one copy, as the composer's buffer is. The part of an attachment's cost that is the copy.
     */
    private static double copyCost(ThreadMXBean threads, int size, int times) {
        byte[] source = new byte[size];
        long sum = 0;
        long cpu0 = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < times; i++) {
            byte[] target = new byte[size];
            System.arraycopy(source, 0, target, 0, size);
            sum += target[i % size];
        }
        long cpu = threads.getCurrentThreadCpuTime() - cpu0;
        return sum == Long.MIN_VALUE ? 0 : cpu / 1e3 / times;
    }

    /** Counts what is written and keeps nothing, so the figures hold no buffer growth. */
    private static final class Counting extends OutputStream {
        long bytes;

        @Override
        public void write(int b) {
            bytes++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes += len;
        }
    }
}
