package dev.mailrun.campaign.audience.segment;

import dev.mailrun.campaign.store.audience.SubscriberFilterSql;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * A filter as SQL: a WHERE fragment over the subscriber table aliased {@code s}, and its parameters
 * in placeholder order. Every value (attribute paths, texts, numbers, list names, instants) is a
 * parameter; the text holds only mailrun's own SQL. Instants ("the last N days") were fixed by the
 * clock when the filter was compiled.
 *
 * <p>How a statement uses it (the materialisation of a segment into a campaign, for one):
 * <pre>{@code
 * CompiledFilter f = segments.compile("active-pros");
 * String sql = "INSERT INTO recipient (...) SELECT ... FROM subscriber s WHERE s.status = 'enabled' AND "
 *         + f.whereClause() + " ORDER BY s.id";
 * try (PreparedStatement ps = c.prepareStatement(sql)) {
 *     int next = f.bind(ps, 1);   // then bind whatever follows the fragment from index next
 * }
 * }</pre>
 * The fragment is parenthesised (or one predicate), so it may be ANDed with anything; the
 * statement must name the subscriber table {@code s}.
 */
public final class CompiledFilter {

    private final SubscriberFilterSql.Where where;

    CompiledFilter(SubscriberFilterSql.Where where) {
        this.where = where;
    }

    /** The WHERE fragment over {@code subscriber s}, with {@code ?} placeholders. */
    public String whereClause() {
        return where.sql();
    }

    /** The parameters, in placeholder order: String, BigDecimal or Long, each bound with setObject. */
    public List<Object> params() {
        return where.params();
    }

    /** Binds the parameters from index {@code first}; returns the next free index. */
    public int bind(PreparedStatement ps, int first) throws SQLException {
        return where.bind(ps, first);
    }

    /** The fragment and its parameters as the store reads them. */
    public SubscriberFilterSql.Where where() {
        return where;
    }
}
