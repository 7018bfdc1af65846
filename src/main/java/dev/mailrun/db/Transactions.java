package dev.mailrun.db;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;

/**
 * Runs a unit of work in one transaction: commit on success, roll back on any failure. A deadlock
 * or lock wait timeout chosen as victim by the database rolls the whole unit back; it is then run
 * again from the start (a few times), so the work must not depend on state outside the transaction.
 */
public final class Transactions {

    private static final int ATTEMPTS = 5;
    /** Leave the connection's isolation level as it is (no JDBC level has this value). */
    private static final int SESSION_ISOLATION = -1;

    @FunctionalInterface
    public interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    private Transactions() {}

    public static <T> T inTransaction(DataSource dataSource, Work<T> work) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                return once(dataSource, work);
            } catch (SQLException e) {
                if (attempt >= ATTEMPTS || !isRetryable(e)) {
                    throw e;
                }
                pause(attempt);
            }
        }
    }

    /**
     * Runs read-only work in one {@code REPEATABLE READ} transaction, so that every statement sees
     * the same snapshot (an export read in pages gets each row once, as it was when the export
     * began). Never run again on failure: the work may already have written its output.
     */
    public static <T> T readSnapshot(DataSource dataSource, Work<T> work) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return committed(c, Connection.TRANSACTION_REPEATABLE_READ, work);
        }
    }

    /** Deadlock victim (SQLSTATE 40001, MySQL error 1213) or lock wait timeout (1205). */
    static boolean isRetryable(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s && ("40001".equals(s.getSQLState()) || s.getErrorCode() == 1213
                    || s.getErrorCode() == 1205)) {
                return true;
            }
        }
        return false;
    }

    private static void pause(int attempt) throws SQLException {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1, 10L * attempt));
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while retrying a transaction", ie);
        }
    }

    private static <T> T once(DataSource dataSource, Work<T> work) throws SQLException {
        Connection c = dataSource.getConnection();
        T result;
        try {
            result = committed(c, SESSION_ISOLATION, work);
        } catch (SQLException | RuntimeException | Error e) {
            closeQuietly(c, e);
            throw e;
        }
        // The commit succeeded: a connection lost since then cannot undo it, so the result stands.
        closeQuietly(c, null);
        return result;
    }

    /**
     * The one commit/rollback block: work in a transaction of its own at {@code isolation}
     * ({@link #SESSION_ISOLATION}: the connection's), committed, or rolled back on any failure; the
     * connection's autocommit and isolation are put back either way.
     */
    private static <T> T committed(Connection c, int isolation, Work<T> work) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        int previousIsolation = isolation == SESSION_ISOLATION ? SESSION_ISOLATION : c.getTransactionIsolation();
        c.setAutoCommit(false);
        if (isolation != SESSION_ISOLATION) {
            c.setTransactionIsolation(isolation);
        }
        try {
            T result = work.run(c);
            c.commit();
            return result;
        } catch (SQLException | RuntimeException | Error e) {
            rollbackQuietly(c, e);
            throw e;
        } finally {
            if (previousIsolation != SESSION_ISOLATION) {
                restoreIsolation(c, previousIsolation);
            }
            restore(c, autoCommit);
        }
    }

    /** Closes; a failure is added to {@code failure} when there is one, and otherwise left to the pool, which evicts the connection. */
    private static void closeQuietly(Connection c, Throwable failure) {
        try {
            c.close();
        } catch (SQLException closeFailure) {
            if (failure != null) {
                failure.addSuppressed(closeFailure);
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

    private static void restoreIsolation(Connection c, int isolation) {
        try {
            c.setTransactionIsolation(isolation);
        } catch (SQLException ignored) {
            // The pool resets or evicts the connection; nothing to do here.
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
