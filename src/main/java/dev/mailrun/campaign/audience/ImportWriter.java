package dev.mailrun.campaign.audience;

import dev.mailrun.campaign.importing.CheckedRows;
import dev.mailrun.campaign.importing.RecipientRejectReason;
import dev.mailrun.campaign.model.SubscriberEventKind;
import dev.mailrun.campaign.model.SubscriberStatus;
import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.campaign.model.SubscriptionStatus;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.store.audience.SubscriberEventTable;
import dev.mailrun.campaign.store.audience.SubscriberEventTable.NewEvent;
import dev.mailrun.campaign.store.audience.SubscriberImports;
import dev.mailrun.campaign.store.audience.SubscriberImports.Found;
import dev.mailrun.campaign.store.audience.SubscriberListTable;
import dev.mailrun.campaign.store.audience.SubscriptionTable;
import dev.mailrun.db.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Writes one batch of an import into a list in one transaction, a statement or two per table for the
 * whole batch:
 *
 * <ol>
 *   <li>the list, under a shared lock (not deleted under the import); in add and update mode the
 *       suppression list, whose addresses are rejected as the recipient import rejects them;</li>
 *   <li>the batch's subscribers that exist, locked: one the import read on an earlier line is a
 *       duplicate in the file; the others are inserted ({@code INSERT IGNORE}, stamped with the import);</li>
 *   <li>what the mode does to the rest ({@link ImportMode}), then every row's event.</li>
 * </ol>
 *
 * What it decided is returned once the transaction committed; a transaction the database runs again
 * (a deadlock) decides everything again from the start.
 */
final class ImportWriter {

    /** What one row became; each row of a batch is one of these or a reject. */
    enum Fate { IMPORTED, SUBSCRIBED, UPDATED, UNSUBSCRIBED, BLOCKLISTED, UNCHANGED }

    record Reject(CheckedRows.Accepted row, RecipientRejectReason reason, String detail) {}

    /**
     * A batch's outcome: the fate of every row not rejected, the rejects, and where each address of the
     * batch first occurs in the file (its own line, or the earlier line a duplicate repeats).
     */
    record Outcome(List<Fate> fates, List<Reject> rejects, Map<String, Long> firstLines) {}

    /** A subscriber of the batch that exists (or, {@code created}, that this batch inserted), and its row. */
    private record Member(CheckedRows.Accepted row, Found found, boolean created) {}

    /** The import: its list, mode, id, file name (for the history) and what an update replaces. */
    record Target(SubscriberListTable.Stored list, ImportMode mode, String importId, String fileName, SubscriberImports.Replace replace) {}

    private final DataSource dataSource;
    private final Clock clock;
    private final Target target;
    private final SuppressionTable suppressions = new SuppressionTable();
    private final SubscriberListTable lists = new SubscriberListTable();
    private final SubscriberImports subscribers = new SubscriberImports();
    private final SubscriptionTable subscriptions = new SubscriptionTable();
    private final SubscriberEventTable events = new SubscriberEventTable();

    ImportWriter(DataSource dataSource, Clock clock, Target target) {
        this.dataSource = dataSource;
        this.clock = clock;
        this.target = target;
    }

    Outcome write(List<CheckedRows.Accepted> rows) throws SQLException {
        if (rows.isEmpty()) {
            return new Outcome(List.of(), List.of(), Map.of());
        }
        return Transactions.inTransaction(dataSource, c -> new Work(c, clock.instant()).run(rows));
    }

    /** One attempt at the batch's transaction, with what it decided so far. */
    private final class Work {
        private final Connection c;
        private final Instant now;
        private final List<Fate> fates = new ArrayList<>();
        private final List<Reject> rejects = new ArrayList<>();
        private final Map<String, Long> firstLines = new HashMap<>();
        private final List<NewEvent> news = new ArrayList<>();

        Work(Connection c, Instant now) {
            this.c = c;
            this.now = now;
        }

        Outcome run(List<CheckedRows.Accepted> rows) throws SQLException {
            SubscriberListTable.Stored list = target.list();
            if (lists.lockShared(c, list.id()).isEmpty()) {
                throw new IllegalStateException("list '" + list.name() + "' was deleted while the import ran");
            }
            List<String> keys = rows.stream().map(CheckedRows.Accepted::key).toList();
            Set<String> suppressed = target.mode().adds() ? suppressions.suppressedAmong(c, keys) : Set.of();
            Map<String, Found> found = subscribers.lock(c, keys);
            List<CheckedRows.Accepted> fresh = new ArrayList<>();
            List<Member> members = new ArrayList<>();
            for (CheckedRows.Accepted r : rows) {
                firstLines.put(r.key(), r.line());
                Found f = found.get(r.key());
                if (suppressed.contains(r.key())) {
                    rejects.add(new Reject(r, RecipientRejectReason.SUPPRESSED, "address is on the suppression list"));
                } else if (f != null && f.readBy(target.importId(), r.line())) {
                    firstLines.put(r.key(), f.importLine());
                    rejects.add(new Reject(r, RecipientRejectReason.DUPLICATE_IN_FILE, "first at line " + f.importLine()));
                } else if (f == null) {
                    fresh.add(r);
                } else {
                    members.add(new Member(r, f, false));
                }
            }
            members.addAll(insert(fresh));
            switch (target.mode()) {
                case ADD, UPDATE -> subscribe(members);
                case UNSUBSCRIBE -> unsubscribe(members);
                case BLOCKLIST -> blocklist(members);
            }
            events.write(c, news, now);
            return new Outcome(fates, rejects, firstLines);
        }

        /** Inserts the new addresses; returns them as members, each found again by the stamp it was inserted with. */
        private List<Member> insert(List<CheckedRows.Accepted> fresh) throws SQLException {
            if (fresh.isEmpty()) {
                return List.of();
            }
            SubscriberStatus status = target.mode() == ImportMode.BLOCKLIST ? SubscriberStatus.BLOCKLISTED : SubscriberStatus.ENABLED;
            subscribers.insert(c, fresh.stream().map(r -> new SubscriberImports.NewRow(r.email(), r.name(), r.fieldsJson(), r.line()))
                    .toList(), status, target.importId(), now);
            Map<String, Found> after = subscribers.lock(c, fresh.stream().map(CheckedRows.Accepted::key).toList());
            List<Member> members = new ArrayList<>();
            for (CheckedRows.Accepted r : fresh) {
                Found f = after.get(r.key());
                if (f == null) {
                    rejects.add(new Reject(r, RecipientRejectReason.INVALID_FIELD, "refused by the database"));
                } else {
                    // Not ours: added by someone else between the lock and the insert, so one that was there before.
                    boolean ours = f.importId().filter(target.importId()::equals).isPresent() && f.importLine() == r.line();
                    members.add(new Member(r, f, ours));
                }
            }
            List<Member> created = members.stream().filter(Member::created).toList();
            Map<Long, String> attribs = new LinkedHashMap<>();
            created.stream().filter(m -> m.row().fieldsJson() != null).forEach(m -> attribs.put(m.found().id(), m.row().fieldsJson()));
            subscribers.indexInserted(c, attribs);
            news.addAll(created.stream().map(m -> new NewEvent(m.found().id(), SubscriberEventKind.IMPORTED, null, where(m))).toList());
            return members;
        }

        private void subscribe(List<Member> members) throws SQLException {
            List<Member> before = members.stream().filter(m -> !m.created()).toList();
            SubscriberImports.Replace replace = target.mode() == ImportMode.UPDATE ? target.replace() : SubscriberImports.Replace.NOTHING;
            stamp(before, replace);
            List<Member> enabled = members.stream().filter(m -> m.found().status() == SubscriberStatus.ENABLED).toList();
            Map<Long, SubscriptionStatus> onList = subscriptions.lockOnList(c, target.list().id(), ids(enabled));
            Set<Long> newcomers = new HashSet<>();
            enabled.stream().map(m -> m.found().id()).filter(id -> !onList.containsKey(id)).forEach(newcomers::add);
            SubscriptionStatus status = target.list().optIn().newSubscription();
            subscriptions.subscribe(c, target.list().id(), newcomers, status, SubscriptionSource.IMPORT, now);
            for (Member m : members) {
                long id = m.found().id();
                boolean joined = newcomers.contains(id);
                if (m.created()) {
                    fates.add(Fate.IMPORTED);
                } else if (replace != SubscriberImports.Replace.NOTHING) {
                    fates.add(Fate.UPDATED);
                    news.add(new NewEvent(id, SubscriberEventKind.UPDATED, null, replaced(replace) + " by import, " + where(m)));
                } else {
                    fates.add(joined ? Fate.SUBSCRIBED : Fate.UNCHANGED);
                }
                if (joined) {
                    news.add(new NewEvent(id, SubscriberEventKind.SUBSCRIBED, target.list().id(),
                            "list '" + target.list().name() + "', " + status.dbValue() + ", by import, " + where(m)));
                }
            }
        }

        private void unsubscribe(List<Member> members) throws SQLException {
            stamp(members.stream().filter(m -> !m.created()).toList(), SubscriberImports.Replace.NOTHING);
            Map<Long, SubscriptionStatus> onList = subscriptions.lockOnList(c, target.list().id(), ids(members));
            List<Long> absent = new ArrayList<>();
            List<Long> held = new ArrayList<>();
            for (Member m : members) {
                SubscriptionStatus s = onList.get(m.found().id());
                if (s == null) {
                    absent.add(m.found().id());
                } else if (s != SubscriptionStatus.UNSUBSCRIBED) {
                    held.add(m.found().id());
                }
            }
            // An address unknown to the list is put on it unsubscribed: a later import adding it leaves it so.
            subscriptions.subscribe(c, target.list().id(), absent, SubscriptionStatus.UNSUBSCRIBED, SubscriptionSource.IMPORT, now);
            subscriptions.setStatus(c, target.list().id(), held, SubscriptionStatus.UNSUBSCRIBED, now);
            Set<Long> changed = new HashSet<>(absent);
            changed.addAll(held);
            for (Member m : members) {
                boolean unsubscribed = changed.contains(m.found().id());
                fates.add(unsubscribed ? Fate.UNSUBSCRIBED : Fate.UNCHANGED);
                if (unsubscribed) {
                    news.add(new NewEvent(m.found().id(), SubscriberEventKind.UNSUBSCRIBED, target.list().id(),
                            "list '" + target.list().name() + "', by import, " + where(m)));
                }
            }
        }

        private void blocklist(List<Member> members) throws SQLException {
            stamp(members.stream().filter(m -> !m.created()).toList(), SubscriberImports.Replace.NOTHING);
            List<Member> enabled = members.stream().filter(m -> !m.created() && m.found().status() == SubscriberStatus.ENABLED).toList();
            List<Long> ids = ids(enabled);
            List<SubscriptionTable.Held> held = subscriptions.lockHeld(c, ids);
            subscribers.blocklist(c, ids, now);
            subscriptions.unsubscribeEverywhere(c, ids, now);
            for (SubscriptionTable.Held h : held) {
                news.add(new NewEvent(h.subscriberId(), SubscriberEventKind.UNSUBSCRIBED, h.listId(), "blocklisted by import"));
            }
            Set<Long> blocklisted = new HashSet<>(ids);
            for (Member m : members) {
                boolean done = m.created() || blocklisted.contains(m.found().id());
                fates.add(done ? Fate.BLOCKLISTED : Fate.UNCHANGED);
                if (done) {
                    news.add(new NewEvent(m.found().id(), SubscriberEventKind.BLOCKLISTED, null, "by import, " + where(m)));
                }
            }
        }

        /** Stamps the members that were there before with this import and their lines, replacing what {@code replace} says. */
        private void stamp(List<Member> before, SubscriberImports.Replace replace) throws SQLException {
            subscribers.update(c, before.stream().map(m -> new SubscriberImports.Change(m.found().id(), m.row().line(),
                    m.row().name(), m.row().fieldsJson())).toList(), replace, target.importId(), now);
        }
    }

    private String where(Member m) {
        return "line " + m.row().line() + " of " + target.fileName();
    }

    private static String replaced(SubscriberImports.Replace replace) {
        return switch (replace) {
            case NAME -> "name";
            case ATTRIBUTES -> "attributes";
            case NAME_AND_ATTRIBUTES -> "name, attributes";
            case NOTHING -> "nothing";
        };
    }

    private static List<Long> ids(List<Member> members) {
        return members.stream().map(m -> m.found().id()).toList();
    }
}
