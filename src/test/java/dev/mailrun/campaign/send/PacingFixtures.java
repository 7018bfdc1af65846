package dev.mailrun.campaign.send;

import dev.mailrun.testing.StatusCounts;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.ScriptedSmtpServer;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/** Recipients at chosen domains, and what a scripted relay saw of them. */
final class PacingFixtures {

    private static final Pattern TO = Pattern.compile("^To: .*?<?([^<>\\s]+@([^<>\\s]+?))>?\\r?$", Pattern.MULTILINE);

    private PacingFixtures() {
    }

    /**
     * {@code counts} recipients per domain, shuffled with a fixed seed so that domains are mixed in
     * id order as in a real list; addresses {@code <prefix><n>@<domain>}.
     */
    static void recipients(DataSource ds, long campaignId, String prefix, Map<String, Integer> counts) throws Exception {
        List<String> addresses = new ArrayList<>();
        counts.forEach((domain, n) -> {
            for (int i = 0; i < n; i++) {
                addresses.add(prefix + i + "@" + domain);
            }
        });
        Collections.shuffle(addresses, new Random(7));
        Transactions.inTransaction(ds, c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO recipient (campaign_id, email, name, status, updated_at)
                    VALUES (?, ?, 'Reader', 'pending', UTC_TIMESTAMP(3))""")) {
                for (String a : addresses) {
                    ps.setLong(1, campaignId);
                    ps.setString(2, a);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            StatusCounts.inserted(c, campaignId, addresses.size());
            return null;
        });
    }

    /** How many messages each address received through {@code server}. */
    static Map<String, Integer> addressees(ScriptedSmtpServer server) {
        Map<String, Integer> to = new HashMap<>();
        for (String message : server.messages()) {
            to.merge(recipientOf(message), 1, Integer::sum);
        }
        return to;
    }

    /** The To address of a message's content. */
    static String recipientOf(String content) {
        Matcher m = TO.matcher(content);
        if (!m.find()) {
            throw new AssertionError("no To header in message");
        }
        return m.group(1);
    }

    static String domainOf(String address) {
        return address.substring(address.lastIndexOf('@') + 1);
    }

    /**
     * What the relay saw: each accepted RCPT's time (System.nanoTime) per domain — a relay counts a
     * message when it is submitted, as Postfix's anvil counts MAIL FROM, and the sender's limiters
     * pace exactly that moment — and the To address of each accepted message.
     */
    static final class Arrivals {
        private static final Pattern RCPT = Pattern.compile("(?i)TO:\\s*<([^>]+)>");
        final Map<String, List<Long>> byDomain = new ConcurrentHashMap<>();
        final Map<String, Integer> perAddress = new ConcurrentHashMap<>();
        private final Map<Integer, Long> mailFrom = new ConcurrentHashMap<>();

        /** An accepted RCPT TO, by its argument. */
        void rcpt(String argument) {
            rcptAt(argument, System.nanoTime());
        }

        /** A MAIL FROM read on {@code connection}: the message counts from it, once its RCPT names the domain. */
        void mailFrom(int connection) {
            mailFrom.put(connection, System.nanoTime());
        }

        /** An accepted RCPT TO on {@code connection}, counted when that message's MAIL FROM came in. */
        void rcpt(int connection, String argument) {
            Long at = mailFrom.remove(connection);
            rcptAt(argument, at != null ? at : System.nanoTime());
        }

        private void rcptAt(String argument, long nanos) {
            Matcher m = RCPT.matcher(argument);
            if (!m.find()) {
                throw new AssertionError("RCPT without an address: " + argument);
            }
            byDomain.computeIfAbsent(domainOf(m.group(1)), d -> Collections.synchronizedList(new ArrayList<>()))
                    .add(nanos);
        }

        /** An accepted message, by its content. */
        void message(String content) {
            perAddress.merge(recipientOf(content), 1, Integer::sum);
        }

        List<Long> of(String domain) {
            List<Long> times = new ArrayList<>(byDomain.getOrDefault(domain, List.of()));
            times.sort(null);
            return times;
        }

        List<Long> allBut(String domain) {
            List<Long> times = new ArrayList<>();
            byDomain.forEach((d, t) -> {
                if (!d.equals(domain)) {
                    synchronized (t) {
                        times.addAll(t);
                    }
                }
            });
            times.sort(null);
            return times;
        }

        List<Long> all() {
            List<Long> times = new ArrayList<>();
            byDomain.values().forEach(t -> {
                synchronized (t) {
                    times.addAll(t);
                }
            });
            times.sort(null);
            return times;
        }
    }

    /**
     * The most times that fall in one second of a fixed grid: how a relay that counts per second
     * sees them, and what "never more than N in any second" means in the benchmarks too. A sliding
     * window would also count a message the scheduler of this shared machine delayed into the next
     * one's second, which says nothing about the sender's pace.
     */
    static int maxInOneSecond(List<Long> sorted) {
        return maxInOneSecond(sorted, 0);
    }

    /** {@link #maxInOneSecond} on a clock whose seconds begin at {@code origin} (nanoTime), and every second after. */
    static int maxInOneSecond(List<Long> sorted, long origin) {
        Map<Long, Integer> perSecond = new HashMap<>();
        for (long t : sorted) {
            perSecond.merge(Math.floorDiv(t - origin, 1_000_000_000L), 1, Integer::sum);
        }
        return perSecond.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    }
}
