package dev.mailrun.db;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Instants in and out of {@code DATETIME(3)} columns, always as UTC wall-clock values.
 *
 * <p>Passing {@link LocalDateTime} means neither the driver nor the server applies any time zone:
 * the JVM's zone, the session's {@code time_zone} and the driver's {@code connectionTimeZone} all
 * stop mattering. Database "now" is always {@code UTC_TIMESTAMP(3)}, never {@code NOW()}.
 */
public final class SqlTime {

    private SqlTime() {}

    static LocalDateTime toDb(Instant instant) {
        return instant == null ? null : LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    static Instant fromDb(LocalDateTime value) {
        return value == null ? null : value.toInstant(ZoneOffset.UTC);
    }

    /**
     * Binds an instant as a UTC {@code 'yyyy-MM-dd HH:mm:ss.SSS'} literal. Bound as a temporal type,
     * the driver drops the milliseconds for MariaDB 10.x servers (their version string begins with
     * the compatibility prefix 5.5.5, which the driver reads as "no fractional seconds").
     */
    public static void set(PreparedStatement ps, int index, Instant instant) throws SQLException {
        if (instant == null) {
            ps.setNull(index, Types.TIMESTAMP);
        } else {
            ps.setString(index, literal(instant));
        }
    }

    /**
     * The UTC literal {@link #set} binds, for callers binding many rows with the same instant. Written
     * digit by digit for the years a DATETIME holds (1000 to 9999): a run's flush binds one or two per
     * recipient, and the general formatter took about a tenth of the flush's own time.
     */
    public static String literal(Instant instant) {
        LocalDateTime t = toDb(instant);
        int year = t.getYear();
        if (year < 1000 || year > 9999) {
            return LITERAL.format(t);
        }
        char[] c = new char[23];
        digits(c, 0, year, 4);
        c[4] = '-';
        digits(c, 5, t.getMonthValue(), 2);
        c[7] = '-';
        digits(c, 8, t.getDayOfMonth(), 2);
        c[10] = ' ';
        digits(c, 11, t.getHour(), 2);
        c[13] = ':';
        digits(c, 14, t.getMinute(), 2);
        c[16] = ':';
        digits(c, 17, t.getSecond(), 2);
        c[19] = '.';
        digits(c, 20, t.getNano() / 1_000_000, 3);
        return new String(c);
    }

    private static void digits(char[] into, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            into[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }

    private static final java.time.format.DateTimeFormatter LITERAL =
            java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS");

    public static Instant get(ResultSet rs, String column) throws SQLException {
        return fromDb(rs.getObject(column, LocalDateTime.class));
    }

    public static Instant get(ResultSet rs, int column) throws SQLException {
        return fromDb(rs.getObject(column, LocalDateTime.class));
    }
}
