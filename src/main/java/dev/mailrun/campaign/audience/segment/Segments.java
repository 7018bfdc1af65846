package dev.mailrun.campaign.audience.segment;

import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.store.audience.CampaignSegmentTable;
import dev.mailrun.campaign.store.audience.SegmentTable;
import dev.mailrun.campaign.store.audience.SubscriberListTable;
import dev.mailrun.campaign.store.audience.SubscriberMatches;
import dev.mailrun.db.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * The operator's segments (docs/AUDIENCE.md, "Segments"): saved filters over the subscribers, by
 * name (unique whatever the letter case), each with a live count and a preview of its first rows.
 * A filter is JSON in mailrun's grammar ({@link FilterParser}), checked whole when it is saved or
 * asked about and compiled to parameterised SQL ({@link FilterCompiler}) every time it is read, so
 * "the last 90 days" moves with the clock.
 */
public final class Segments {

    public static final int MAX_NAME = 100;
    public static final int MAX_PREVIEW = 100;

    private final DataSource dataSource;
    private final Clock clock;
    private final FilterCompiler compiler;
    private final SegmentTable segments = new SegmentTable();
    private final SubscriberListTable lists = new SubscriberListTable();
    private final SubscriberMatches matches = new SubscriberMatches();
    private final CampaignSegmentTable targets = new CampaignSegmentTable();

    public Segments(DataSource dataSource, Clock clock) {
        this.dataSource = dataSource;
        this.clock = clock;
        this.compiler = new FilterCompiler(clock);
    }

    /** @throws InvalidFields naming {@code name} (blank, too long, taken) or the filter's bad parts by their paths */
    public SegmentTable.Stored create(String name, String filter) throws SQLException {
        String n = checkedName(name);
        try {
            return Transactions.inTransaction(dataSource, c -> {
                FilterParser.Parsed parsed = checked(c, filter);
                if (segments.find(c, n).isPresent()) {
                    throw taken(n);
                }
                segments.insert(c, n, parsed.json(), clock.instant());
                return segments.find(c, n).orElseThrow();
            });
        } catch (SQLIntegrityConstraintViolationException e) {
            // Created by another caller between the check and the insert.
            throw taken(n);
        }
    }

    /**
     * Renames the segment, replaces its filter, or both; an empty part stays as it is.
     *
     * @throws InvalidFields naming {@code name} (no such segment, new name taken) or the filter's bad parts
     */
    public SegmentTable.Stored update(String name, Optional<String> newName, Optional<String> filter) throws SQLException {
        try {
            return Transactions.inTransaction(dataSource, c -> {
                SegmentTable.Stored old = existing(c, name);
                String n = newName.isPresent() ? checkedName(newName.get()) : old.name();
                String json = filter.isPresent() ? checked(c, filter.get()).json() : old.filter();
                Optional<SegmentTable.Stored> holder = segments.find(c, n);
                if (holder.isPresent() && holder.get().id() != old.id()) {
                    throw taken(n);
                }
                segments.update(c, old.id(), n, json, clock.instant());
                return segments.find(c, n).orElseThrow();
            });
        } catch (SQLIntegrityConstraintViolationException e) {
            throw taken(newName.orElse(name).strip());
        }
    }

    /**
     * Deletes the segment, refused while a campaign neither completed nor cancelled is sent to it.
     *
     * @throws InvalidFields naming {@code name} when there is no such segment, or a campaign targets it
     */
    public void delete(String name) throws SQLException {
        Transactions.inTransaction(dataSource, c -> {
            SegmentTable.Stored segment = existing(c, name);
            List<Long> sending = targets.openCampaignsOf(c, segment.id(), 5);
            if (!sending.isEmpty()) {
                throw InvalidFields.of("name", "segment '" + segment.name() + "' is the audience of campaign "
                        + sending.stream().map(String::valueOf).collect(Collectors.joining(", "))
                        + "; complete, cancel or change " + (sending.size() == 1 ? "it" : "them") + " first");
            }
            return segments.delete(c, segment.id());
        });
    }

    /** Every segment, by name. */
    public List<SegmentTable.Stored> list() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return segments.all(c);
        }
    }

    public Optional<SegmentTable.Stored> get(String name) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return segments.find(c, name == null ? "" : name.strip());
        }
    }

    /** How many subscribers the segment named {@code name} matches now. @throws InvalidFields naming {@code name} */
    public long count(String name) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return matches.count(c, stored(c, name).where());
        }
    }

    /** How many subscribers {@code filter} matches now. @throws InvalidFields naming the filter's bad parts */
    public long countFilter(String filter) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return matches.count(c, compiler.compile(checked(c, filter).filter()).where());
        }
    }

    /** The first {@code limit} (1–{@value #MAX_PREVIEW}) subscribers {@code filter} matches, in id order. */
    public List<SubscriberMatches.Match> preview(String filter, int limit) throws SQLException {
        checkLimit(limit);
        try (Connection c = dataSource.getConnection()) {
            return matches.first(c, compiler.compile(checked(c, filter).filter()).where(), limit);
        }
    }

    /** The first {@code limit} (1–{@value #MAX_PREVIEW}) subscribers the segment named {@code name} matches, in id order. */
    public List<SubscriberMatches.Match> previewSegment(String name, int limit) throws SQLException {
        checkLimit(limit);
        try (Connection c = dataSource.getConnection()) {
            return matches.first(c, stored(c, name).where(), limit);
        }
    }

    /**
     * The segment named {@code name} as SQL, its "last N days" fixed at the clock's now: what a
     * statement of its own (the materialisation of a segment into a campaign) ANDs into its WHERE
     * clause ({@link CompiledFilter}).
     *
     * @throws InvalidFields naming {@code name} when there is no such segment
     */
    public CompiledFilter compile(String name) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return stored(c, name);
        }
    }

    private CompiledFilter stored(Connection c, String name) throws SQLException {
        // Checked when it was saved; a list it names that was deleted since matches nobody.
        return compiler.compile(FilterParser.parse(existing(c, name).filter()).filter());
    }

    /** The filter read, and every list it names found: an unknown one is a problem named by its path. */
    private FilterParser.Parsed checked(Connection c, String filter) throws SQLException {
        FilterParser.Parsed parsed = FilterParser.parse(filter);
        List<InvalidFields.Problem> problems = new ArrayList<>();
        for (Map.Entry<String, String> list : parsed.lists().entrySet()) {
            if (lists.find(c, list.getValue()).isEmpty()) {
                problems.add(new InvalidFields.Problem(list.getKey(), "no list named '" + list.getValue() + "'"));
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidFields(problems);
        }
        return parsed;
    }

    private SegmentTable.Stored existing(Connection c, String name) throws SQLException {
        String n = name == null ? "" : name.strip();
        return segments.find(c, n).orElseThrow(() -> InvalidFields.of("name", "no segment named '" + n + "'"));
    }

    private static String checkedName(String name) {
        String n = name == null ? "" : name.strip();
        if (n.isEmpty()) {
            throw InvalidFields.of("name", "must not be blank");
        }
        if (n.length() > MAX_NAME) {
            throw InvalidFields.of("name", "is longer than " + MAX_NAME + " characters");
        }
        if (n.chars().anyMatch(ch -> ch < 0x20 || ch >= 0x7f && ch <= 0x9f || ch == 0x2028 || ch == 0x2029)) {
            throw InvalidFields.of("name", "must be one line of text without control characters");
        }
        return n;
    }

    private static void checkLimit(int limit) {
        if (limit < 1 || limit > MAX_PREVIEW) {
            throw InvalidFields.of("limit", "must be from 1 to " + MAX_PREVIEW);
        }
    }

    private static InvalidFields taken(String name) {
        return InvalidFields.of("name", "a segment named '" + name + "' exists already");
    }
}
