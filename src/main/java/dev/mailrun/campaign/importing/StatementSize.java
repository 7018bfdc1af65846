package dev.mailrun.campaign.importing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * How many bytes of row data one insert statement may carry: half the server's
 * {@code max_allowed_packet}, which leaves room for the statement's own text and the protocol's
 * framing, and at most 4 MiB, beyond which a larger statement saves nothing measurable. Inserts
 * are cut by this as well as by row count, so rows with large fields cannot make a statement the
 * server refuses; a single row larger than this is rejected instead.
 */
record StatementSize(long bytes, long maxAllowedPacket) {

    static final long MOST = 4L * 1024 * 1024;

    /** Reads the server's limit once per import (a server setting, not a table). */
    static StatementSize of(DataSource dataSource) throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT @@max_allowed_packet");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            long packet = rs.getLong(1);
            return new StatementSize(Math.min(MOST, packet / 2), packet);
        }
    }
}
