package dev.mailrun.campaign.content;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.store.ContentPinTable;
import dev.mailrun.campaign.store.MessageSourceTable;
import dev.mailrun.campaign.store.TemplateTable.Stored;
import dev.mailrun.campaign.store.TemplateTable.Version;
import dev.mailrun.campaign.store.TemplateTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.template.LoadResult;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.mail.template.TemplateProblem;
import dev.mailrun.mail.template.TemplateSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * Templates stored in the database, each version immutable. A save compiles the text first and
 * stores nothing when it does not compile (every problem is returned at once), when it is larger
 * than the limit, or when it equals the latest version: only a text that differs becomes a new
 * version, numbered one above the latest under the template row's lock.
 */
public final class TemplateStore {

    /** The default limit on a template's text (all parts together, UTF-8): 1 MiB. */
    public static final long DEFAULT_MAX_BYTES = 1L << 20;
    /** Who saved a version: at most this many characters. */
    public static final int MAX_SAVED_BY = 200;

    /** What a save did. */
    public sealed interface Saved {
        /** A new version, the template's first when {@code created}. */
        record NewVersion(String name, int version, boolean created) implements Saved {}

        /** The text equals the latest version: nothing stored. */
        record Unchanged(String name, int version) implements Saved {}

        /** Not stored: the problems, each {@code name/part:line:column: message}. */
        record Refused(String name, List<TemplateProblem> problems) implements Saved {
            public Refused {
                problems = List.copyOf(problems);
            }
        }
    }

    private final DataSource dataSource;
    private final Clock clock;
    private final long maxBytes;
    private final TemplateTable table = new TemplateTable();
    private final ContentPinTable pins = new ContentPinTable();
    private final MessageSourceTable written = new MessageSourceTable();

    public TemplateStore(DataSource dataSource, Clock clock, long maxBytes) {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("the template size limit must be positive, got " + maxBytes);
        }
        this.dataSource = dataSource;
        this.clock = clock;
        this.maxBytes = maxBytes;
    }

    /** The largest template text a save stores, in UTF-8 bytes (content.max-template-bytes). */
    public long maxBytes() {
        return maxBytes;
    }

    /** Compiles {@code source} and stores it as the template's next version when it compiles and differs. */
    public Saved save(TemplateSource source, String savedBy) throws SQLException {
        return save(source, savedBy, Optional.empty());
    }

    /**
     * As {@link #save(TemplateSource, String)} for a campaign's own message composed into {@code source}:
     * {@code message}, as it was written, is kept with the version saved (or found unchanged) in the same
     * transaction, replacing what an earlier writing of the same composed text kept.
     */
    public Saved save(TemplateSource source, String savedBy, Optional<MessageForm> message) throws SQLException {
        String by = savedBy == null ? "" : savedBy.strip();
        if (by.isEmpty() || by.length() > MAX_SAVED_BY || by.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("who saves a template must be one line of 1-" + MAX_SAVED_BY + " characters");
        }
        long bytes = source.bytes();
        if (bytes > maxBytes) {
            return new Saved.Refused(source.name(), List.of(new TemplateProblem(source.name(), 0, 0,
                    "the template takes " + bytes + " bytes, more than the limit of " + maxBytes + " (content.max-template-bytes)")));
        }
        if (TemplateLoader.compile(source, Optional.empty()) instanceof LoadResult.Invalid invalid) {
            return new Saved.Refused(source.name(), invalid.problems());
        }
        String digest = source.digest();
        return Transactions.inTransaction(dataSource, c -> {
            table.create(c, source.name(), clock.instant());
            Stored stored = table.lock(c, source.name()).orElseThrow();
            if (stored.latestVersion() > 0) {
                Version latest = table.version(c, source.name(), Optional.of(stored.latestVersion())).orElseThrow();
                if (latest.digest().equals(digest)) {
                    keep(c, stored.id(), latest.version(), message, by);
                    return new Saved.Unchanged(source.name(), latest.version());
                }
            }
            int next = stored.latestVersion() + 1;
            table.addVersion(c, stored.id(), new Version(source.name(), next, source.part(TemplateLoader.SUBJECT).orElseThrow(),
                    source.part(TemplateLoader.TEXT).orElseThrow(), source.part(TemplateLoader.HTML).orElseThrow(),
                    source.part(TemplateLoader.PROPERTIES), digest, by, clock.instant()));
            keep(c, stored.id(), next, message, by);
            return new Saved.NewVersion(source.name(), next, next == 1);
        });
    }

    private void keep(Connection c, long templateId, int version, Optional<MessageForm> message, String by)
            throws SQLException {
        if (message.isPresent()) {
            OwnMessage m = message.get().message();
            written.put(c, templateId, version, new MessageSourceTable.Row(message.get().layout(), m.subject(), m.format().word(),
                    m.body(), m.text(), by, clock.instant()));
        }
    }

    /**
     * The message version {@code version} of template {@code name} was composed from, as it was written;
     * empty when none was kept (a version saved as a whole template, or stored before messages were kept).
     */
    public Optional<MessageForm> message(String name, int version) throws SQLException {
        return Transactions.readSnapshot(dataSource, c -> written.find(c, name, version)).map(row -> new MessageForm(row.layout(),
                new OwnMessage(row.subject(), row.body(), BodyFormat.named(row.format()).orElseThrow(), row.text())));
    }

    /**
     * Deletes one version of a stored template, unless a campaign pinned it (it sends it, or sent from it).
     *
     * @throws CampaignException when there is no such version, or campaigns pin it (naming up to ten)
     */
    public void delete(String name, int version) throws SQLException {
        Transactions.inTransaction(dataSource, c -> {
            Stored stored = table.lock(c, name).orElseThrow(() -> new CampaignException("no stored template named " + name));
            List<Long> using = pins.using(c, name, version, 10);
            if (!using.isEmpty()) {
                throw new CampaignException("version " + version + " of template " + name + " is sent by campaign(s) "
                        + using.stream().map(String::valueOf).collect(Collectors.joining(", ")) + "; it cannot be deleted");
            }
            if (!table.deleteVersion(c, stored.id(), version, clock.instant())) {
                throw new CampaignException("template " + name + " has no version " + version);
            }
            return null;
        });
    }

    /** Every stored template with its latest version, by name. */
    public List<Stored> list() throws SQLException {
        return Transactions.readSnapshot(dataSource, table::list);
    }

    /**
     * The versions of a stored template, newest first (subjects, digests, who and when).
     *
     * @throws CampaignException when no template of that name is stored
     */
    public List<Version> versions(String name) throws SQLException {
        List<Version> versions = Transactions.readSnapshot(dataSource, c -> table.versions(c, name));
        if (versions.isEmpty()) {
            throw new CampaignException("no stored template named " + name);
        }
        return versions;
    }

    /**
     * One version of a stored template; the latest when {@code version} is empty.
     *
     * @throws CampaignException when there is no such template or version
     */
    public Version version(String name, Optional<Integer> version) throws SQLException {
        return Transactions.readSnapshot(dataSource, c -> table.version(c, name, version)).orElseThrow(() ->
                new CampaignException(version.map(v -> "template " + name + " has no version " + v)
                        .orElse("no stored template named " + name)));
    }

    /** A stored version's text, as it compiles. */
    public static TemplateSource source(Version v) {
        return TemplateSource.of(v.name(), v.subject(), v.text(), v.html(), v.properties());
    }

    /**
     * The unified diff of two versions of a template, part by part ({@code subject.txt}, {@code body.txt},
     * {@code body.html}, {@code template.properties}); empty when they are the same text.
     */
    public List<String> diff(String name, int from, int to) throws SQLException {
        TemplateSource a = source(version(name, Optional.of(from)));
        TemplateSource b = source(version(name, Optional.of(to)));
        List<String> lines = new ArrayList<>();
        for (String part : TemplateLoader.PARTS) {
            List<String> before = a.part(part).map(TemplateStore::lines).orElse(List.of());
            List<String> after = b.part(part).map(TemplateStore::lines).orElse(List.of());
            lines.addAll(UnifiedDiffUtils.generateUnifiedDiff(name + "/" + part + "@" + from, name + "/" + part + "@" + to,
                    before, DiffUtils.diff(before, after), 3));
        }
        return lines;
    }

    private static List<String> lines(String text) {
        return text.lines().toList();
    }
}
