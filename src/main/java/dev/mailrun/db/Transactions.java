package dev.mailrun.db;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Runs a unit of work in one transaction: commit on success, roll back on any failure. */
public final class Transactions {

    @FunctionalInterface
    public interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    private Transactions() {}

    public static <T> T inTransaction(DataSource dataSource, Work<T> work) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            boolean autoCommit = c.getAutoCommit();
            c.setAutoCommit(false);
            try {
                T result = work.run(c);
                c.commit();
                return result;
            } catch (SQLException | RuntimeException | Error e) {
                rollbackQuietly(c, e);
                throw e;
            } finally {
                restore(c, autoCommit);
            }
        }
    }

    private static void rollbackQuietly(Connection c, Throwable cause) {
        try {
            c.rollback();
        } catch (SQLException rollbackFailure) {
            cause.addSuppressed(rollbackFailure);
        }
    }

    private static void restore(Connection c, boolean autoCommit) {
        try {
            c.setAutoCommit(autoCommit);
        } catch (SQLException ignored) {
            // The pool validates and evicts a broken connection; nothing to do here.
        }
    }
}
