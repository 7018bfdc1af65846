package dev.mailrun.campaign.access;

import dev.mailrun.campaign.store.ApiAuditTable;
import dev.mailrun.db.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/** The audit trail of the API's writes: recorded by the HTTP adapter, read by {@code mailrun audit list}. */
public final class ApiAudit {

    private final DataSource dataSource;
    private final Clock clock;
    private final ApiAuditTable table = new ApiAuditTable();

    public ApiAudit(DataSource dataSource, Clock clock) {
        this.dataSource = dataSource;
        this.clock = clock;
    }

    public void record(String tokenName, String action, String target, int status, Optional<String> detail) throws SQLException {
        ApiAuditTable.Entry entry = new ApiAuditTable.Entry(clock.instant(), tokenName, action, target, status, detail);
        Transactions.inTransaction(dataSource, c -> {
            table.insert(c, entry);
            return null;
        });
    }

    public List<ApiAuditTable.Entry> newest(Instant since, int limit) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return table.newest(c, since, limit);
        }
    }
}
