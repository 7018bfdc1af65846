package dev.mailrun.campaign.model;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Recipient domains paced together ({@code policy.domain.<name>.domains}, {@code .rate}): a mailbox
 * provider throttles a sender over all of its domains at once, so gmail.com and googlemail.com
 * share one rate. The rate holds in total across every worker and run, like the relay's.
 *
 * @param name    the group's name in the configuration (letters, digits, '-')
 * @param domains lower-case domains, as stored recipients carry them (punycode)
 * @param rate    messages per second for the group in total; 0: no cap (it still adapts when a
 *                domain of the group answers "too fast")
 */
public record DomainGroup(String name, List<String> domains, double rate) {

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,39}");
    private static final Pattern DOMAIN = Pattern.compile("(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+");

    public DomainGroup {
        Objects.requireNonNull(name, "name");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("domain group name '" + name + "' must be 1-40 lower-case letters, digits or '-'");
        }
        domains = List.copyOf(domains);
        if (domains.isEmpty()) {
            throw new IllegalArgumentException("domain group " + name + " names no domain");
        }
        for (String d : domains) {
            if (!DOMAIN.matcher(d).matches()) {
                throw new IllegalArgumentException("domain group " + name + ": '" + d + "' is not a lower-case domain name");
            }
        }
        if (!(rate == 0 || (rate >= 0.01 && rate <= 100_000))) {
            throw new IllegalArgumentException("domain group " + name + ": rate must be 0 (no cap) or 0.01–100000 per second, got " + rate);
        }
    }

    /** The name this group's rows carry in relay_share and adapted_rate. */
    public String key() {
        return "domain:" + name;
    }

    /**
     * A rate as configured: {@code 5/s}, {@code 300/min}, {@code 2000/h}, or empty for no cap.
     *
     * @throws IllegalArgumentException naming what is wrong with it
     */
    public static double parseRate(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (v.isEmpty()) {
            return 0;
        }
        int slash = v.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("must be a rate such as 5/s or 300/min, got '" + value + "'");
        }
        double per;
        switch (v.substring(slash + 1).trim()) {
            case "s", "sec", "second" -> per = 1;
            case "m", "min", "minute" -> per = 60;
            case "h", "hour" -> per = 3600;
            default -> throw new IllegalArgumentException("must be a rate per s, min or h (5/s, 300/min), got '" + value + "'");
        }
        double count;
        try {
            count = Double.parseDouble(v.substring(0, slash).trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("must be a rate such as 5/s or 300/min, got '" + value + "'");
        }
        double rate = count / per;
        if (!(rate >= 0.01 && rate <= 100_000)) {
            throw new IllegalArgumentException("must be between 0.01/s (36/h) and 100000/s, got '" + value + "'");
        }
        return rate;
    }
}
