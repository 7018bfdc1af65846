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

    public static LocalDateTime toDb(Instant instant) {
        return instant == null ? null : LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    public static Instant fromDb(LocalDateTime value) {
        return value == null ? null : value.toInstant(ZoneOffset.UTC);
    }

    public static void set(PreparedStatement ps, int index, Instant instant) throws SQLException {
        if (instant == null) {
            ps.setNull(index, Types.TIMESTAMP);
        } else {
            ps.setObject(index, toDb(instant));
        }
    }

    public static Instant get(ResultSet rs, String column) throws SQLException {
        return fromDb(rs.getObject(column, LocalDateTime.class));
    }

    public static Instant get(ResultSet rs, int column) throws SQLException {
        return fromDb(rs.getObject(column, LocalDateTime.class));
    }
}
