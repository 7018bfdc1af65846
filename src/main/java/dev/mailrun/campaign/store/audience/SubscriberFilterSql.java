package dev.mailrun.campaign.store.audience;

import dev.mailrun.db.SqlTime;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The SQL of a segment's conditions over {@code subscriber s}: one fragment per condition, each a
 * boolean that is never NULL (so {@code NOT} means "every other subscriber", someone without the
 * attribute included), and every value — attribute names too — a bound parameter. The text here
 * is constant; only the number of placeholders depends on the filter. Attribute conditions are
 * semi-joins over {@code subscriber_attribute} and its indexes; none reads the JSON, whose text
 * MariaDB 11.4's JSON_UNQUOTE would give in utf8mb3 (an emoji as '?'). Valid on MySQL 8 and MariaDB
 * 10.11 and 11.4 alike.
 */
public final class SubscriberFilterSql {

    /** A bound text compared byte for byte, whatever the connection's collation. */
    private static final String EXACT = "CONVERT(? USING utf8mb4) COLLATE utf8mb4_bin";
    /** The character escaping % and _ in a LIKE pattern: not a backslash, whose meaning depends on the SQL mode. */
    private static final char LIKE_ESCAPE = '!';

    private SubscriberFilterSql() {}

    /** A WHERE fragment over {@code subscriber s} and its parameters, in placeholder order. */
    public record Where(String sql, List<Object> params) {

        public Where {
            params = Collections.unmodifiableList(new ArrayList<>(params));
        }

        /** Binds the parameters from {@code first}; returns the next free index. */
        public int bind(PreparedStatement ps, int first) throws SQLException {
            int i = first;
            for (Object p : params) {
                ps.setObject(i++, p);
            }
            return i;
        }
    }

    public static Where and(List<Where> parts) {
        return joined(parts, " AND ");
    }

    public static Where or(List<Where> parts) {
        return joined(parts, " OR ");
    }

    public static Where not(Where part) {
        return new Where("NOT " + part.sql(), part.params());
    }

    /** The attribute's text is {@code value}, byte for byte. */
    public static Where attrEquals(String name, String value) {
        return attrIn(name, List.of(value), List.of());
    }

    /** The attribute's text is one of {@code texts}, byte for byte, or its number one of {@code numbers}. */
    public static Where attrIn(String name, List<String> texts, List<BigDecimal> numbers) {
        List<String> tests = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        List<String> indexed = texts.stream().filter(SubscriberFilterSql::indexed).toList();
        List<String> longer = texts.stream().filter(t -> !indexed(t)).toList();
        if (!indexed.isEmpty()) {
            tests.add("a.text_value " + oneOf(indexed.size(), EXACT));
            params.addAll(indexed);
        }
        if (!longer.isEmpty()) {
            tests.add("a.text_long " + oneOf(longer.size(), EXACT));
            params.addAll(longer);
        }
        if (!numbers.isEmpty()) {
            tests.add("a.num_value " + oneOf(numbers.size(), "?"));
            params.addAll(numbers);
        }
        return attribute(name, tests.size() == 1 ? tests.get(0) : "(" + String.join(" OR ", tests) + ")", params);
    }

    /**
     * The attribute's text without its trailing spaces holds {@code text}, letter case ignored, every
     * character as itself (% and _ too). Read from the rows, whose short texts ({@code text_value}) have
     * lost their trailing spaces already; a long one ({@code text_long}) loses them here, so that a
     * text's length does not change what it contains. Trailing spaces do not count for {@code eq}
     * either (utf8mb4_bin pads).
     */
    public static Where attrContains(String name, String text) {
        String pattern = "%" + text.replace("!", "!!").replace("%", "!%").replace("_", "!_") + "%";
        return attribute(name, "TRIM(TRAILING ' ' FROM COALESCE(a.text_value, a.text_long)) COLLATE utf8mb4_unicode_ci "
                + "LIKE CONVERT(? USING utf8mb4) COLLATE utf8mb4_unicode_ci ESCAPE '" + LIKE_ESCAPE + "'", List.of(pattern));
    }

    /** The attribute is a number (or a text written as one) within the bounds given; at least one bound. */
    public static Where attrRange(String name, Optional<BigDecimal> gt, Optional<BigDecimal> gte, Optional<BigDecimal> lt,
                                  Optional<BigDecimal> lte) {
        List<String> tests = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        bound(tests, params, " > ", gt);
        bound(tests, params, " >= ", gte);
        bound(tests, params, " < ", lt);
        bound(tests, params, " <= ", lte);
        if (tests.isEmpty()) {
            throw new IllegalArgumentException("a range needs a bound");
        }
        return attribute(name, String.join(" AND ", tests), params);
    }

    /** The subscriber has the attribute, whatever its value. */
    public static Where attrExists(String name) {
        return new Where("s.id IN (SELECT a.subscriber_id FROM subscriber_attribute a WHERE a.name = ?)", List.of(name));
    }

    /** A subscription to the list named {@code list} (letter case ignored) in one of {@code statuses}. */
    public static Where onList(String list, List<String> statuses) {
        List<Object> params = new ArrayList<>();
        params.add(list);
        params.addAll(statuses);
        return new Where("EXISTS (SELECT 1 FROM subscription sub JOIN subscriber_list l ON l.id = sub.list_id "
                + "WHERE sub.subscriber_id = s.id AND l.name = ? AND sub.status IN (" + placeholders(statuses.size(), "?") + "))", params);
    }

    /** The subscriber's own status ({@code enabled}, {@code blocklisted}). */
    public static Where status(String status) {
        return new Where("s.status = ?", List.of(status));
    }

    /**
     * A human open or click ({@code kinds}: tracking_event.kind) of a send to the subscriber's address
     * (any letter case: recipient.email_key), in {@code campaign} or any, since {@code since} or ever.
     * Events recorded without a recipient (tracking.per-recipient=false) name nobody and match no one.
     */
    public static Where engaged(List<String> kinds, Optional<Long> campaign, Optional<Instant> since) {
        List<Object> params = new ArrayList<>(kinds);
        StringBuilder sql = new StringBuilder("s.email_key IN (SELECT r.email_key FROM tracking_event te "
                + "JOIN recipient r ON r.id = te.recipient_id WHERE te.class = 'human' AND te.kind IN (")
                .append(placeholders(kinds.size(), "?")).append(')');
        campaign.ifPresent(id -> {
            sql.append(" AND te.campaign_id = ?");
            params.add(id);
        });
        since.ifPresent(at -> {
            sql.append(" AND te.at >= ?");
            params.add(SqlTime.literal(at));
        });
        return new Where(sql.append(')').toString(), params);
    }

    /**
     * A bounce_event of one of {@code kinds} ({@code hard}, {@code soft}, {@code complaint}) for the
     * subscriber's address, any letter case (bounce_event.address is the send's address as stored),
     * since {@code since} or ever.
     */
    public static Where bounced(List<String> kinds, Optional<Instant> since) {
        List<Object> params = new ArrayList<>(kinds);
        StringBuilder sql = new StringBuilder("s.email_key IN (SELECT LOWER(b.address) FROM bounce_event b WHERE b.kind IN (")
                .append(placeholders(kinds.size(), "?")).append(')');
        since.ifPresent(at -> {
            sql.append(" AND b.created_at >= ?");
            params.add(SqlTime.literal(at));
        });
        return new Where(sql.append(')').toString(), params);
    }

    private static void bound(List<String> tests, List<Object> params, String op, Optional<BigDecimal> value) {
        if (value.isPresent()) {
            tests.add("a.num_value" + op + "?");
            params.add(value.get());
        }
    }

    /**
     * The subscribers with an attribute row named {@code name} that passes {@code test} (over
     * {@code subscriber_attribute a}, its parameters {@code params}): a semi-join the server runs from
     * the attribute's index. Never NULL: subscriber_id is never NULL.
     */
    private static Where attribute(String name, String test, List<Object> params) {
        List<Object> all = new ArrayList<>();
        all.add(name);
        all.addAll(params);
        return new Where("s.id IN (SELECT a.subscriber_id FROM subscriber_attribute a WHERE a.name = ? AND " + test + ")", all);
    }

    private static Where joined(List<Where> parts, String op) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("nothing to join");
        }
        List<Object> params = new ArrayList<>();
        parts.forEach(p -> params.addAll(p.params()));
        return new Where(parts.stream().map(Where::sql).collect(Collectors.joining(op, "(", ")")), params);
    }

    /**
     * Whether a text equal to {@code text} is in {@code text_value} (else in {@code text_long}): at
     * most {@link SubscriberAttributeTable#INDEXED_TEXT} characters without its trailing spaces,
     * which the comparison (utf8mb4_bin) ignores, as the rows' derivation does.
     */
    private static boolean indexed(String text) {
        int end = text.length();
        while (end > 0 && text.charAt(end - 1) == ' ') {
            end--;
        }
        return text.codePointCount(0, end) <= SubscriberAttributeTable.INDEXED_TEXT;
    }

    /** {@code = X} for one, {@code IN (X, …)} for more: the index's ref for a single value. */
    private static String oneOf(int n, String each) {
        return n == 1 ? "= " + each : "IN (" + placeholders(n, each) + ")";
    }

    private static String placeholders(int n, String each) {
        return String.join(", ", Collections.nCopies(n, each));
    }
}
