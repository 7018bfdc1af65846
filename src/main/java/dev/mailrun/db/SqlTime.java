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
            ps.setString(index, LITERAL.format(toDb(instant)));
        }
    }

    /** The UTC literal {@link #set} binds, for callers binding many rows with the same instant. */
    public static String literal(Instant instant) {
        return LITERAL.format(toDb(instant));
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
