package dev.mailrun.bench;

/** Where the benchmarks' SMTP client connects, and when each message's {@code MAIL FROM} arrived there. */
interface ArrivalRecorder extends AutoCloseable {

    int port();

    /** Arrival times ({@link System#nanoTime()}) so far, sorted; clears the record. */
    long[] takeTimes() throws Exception;

    /**
     * A {@link MailFromRecorder} in front of {@code upstreamPort}: {@code "process"} in a JVM of its own
     * (as a relay is), {@code "in-jvm"} in this one.
     */
    static ArrivalRecorder start(String where, int upstreamPort, int capacity) throws Exception {
        return switch (where) {
            case "process" -> RecorderProcess.start(upstreamPort, capacity);
            case "in-jvm" -> new MailFromRecorder(upstreamPort, capacity);
            default -> throw new IllegalArgumentException("--recorder must be process or in-jvm, was '" + where + "'");
        };
    }
}
