package dev.mailrun.campaign.send.record;

/**
 * The outcomes of the last N send attempts, oldest first, kept in the task metadata as a string of
 * 'S' (sent) and 'F' (failed) so the failure rate survives between runs.
 */
public final class FailureWindow {

    private final int size;
    private final StringBuilder recent;

    FailureWindow(int size, String stored) {
        this.size = size;
        String s = stored == null ? "" : stored.replaceAll("[^SF]", "");
        this.recent = new StringBuilder(s.length() > size ? s.substring(s.length() - size) : s);
    }

    void record(boolean failed) {
        recent.append(failed ? 'F' : 'S');
        if (recent.length() > size) {
            recent.deleteCharAt(0);
        }
    }

    boolean isFull() {
        return recent.length() >= size;
    }

    double failureRate() {
        if (recent.length() == 0) {
            return 0;
        }
        long failed = recent.chars().filter(c -> c == 'F').count();
        return (double) failed / recent.length();
    }

    int attempts() {
        return recent.length();
    }

    String stored() {
        return recent.toString();
    }

    /** A copy that later records do not change. */
    FailureWindow snapshot() {
        return new FailureWindow(size, stored());
    }
}
