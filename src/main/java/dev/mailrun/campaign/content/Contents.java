package dev.mailrun.campaign.content;

import dev.mailrun.campaign.model.ContentPin;
import dev.mailrun.campaign.store.TemplateTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.template.LoadResult;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.mail.template.TemplateProblem;
import dev.mailrun.mail.template.TemplateSource;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;

/**
 * What a template name means when a campaign is created or its draft changed: the version it would
 * pin. The template directory ({@code templates.dir}) is a way to write templates: a directory whose
 * text was never stored is stored as the template's next version when a campaign pins it; otherwise
 * (no directory, or a copy of a version already stored, perhaps an older one) the latest stored version
 * is what a new campaign pins. What is pinned is sent from the database ({@link PinnedTemplates}).
 */
public final class Contents {

    private final DataSource dataSource;
    private final TemplateStore store;
    private final TemplateLoader disk;
    private final PinnedTemplates pinned;
    private final TemplateTable table = new TemplateTable();

    public Contents(DataSource dataSource, TemplateStore store, TemplateLoader disk, PinnedTemplates pinned) {
        this.dataSource = dataSource;
        this.store = store;
        this.disk = disk;
        this.pinned = pinned;
    }

    /** What a name resolves to now. */
    public sealed interface Resolved {
        /** A stored version: the latest, as no directory brings new text. */
        record Stored(ContentPin pin) implements Resolved {}

        /** A directory whose text was never stored: stored when a campaign pins it. */
        record Written(TemplateSource source) implements Resolved {}

        /** Nothing usable: the problems (a directory that does not compile, or no template of the name). */
        record Missing(List<TemplateProblem> problems) implements Resolved {}
    }

    /** What creating a campaign from {@code name} now would pin. */
    public Resolved resolve(String name) throws SQLException {
        Optional<TemplateTable.Stored> stored = Transactions.readSnapshot(dataSource, c -> table.find(c, name))
                .filter(s -> s.latestVersion() > 0);
        if (disk.has(name)) {
            TemplateLoader.Read read = disk.read(name);
            if (!read.problems().isEmpty()) {
                return new Resolved.Missing(read.problems());
            }
            String digest = read.source().digest();
            boolean known = stored.isPresent() && Transactions.readSnapshot(dataSource, c -> table.versions(c, name))
                    .stream().anyMatch(v -> v.digest().equals(digest));
            if (!known) {
                return TemplateLoader.compile(read.source(), Optional.empty()) instanceof LoadResult.Invalid invalid
                        ? new Resolved.Missing(invalid.problems()) : new Resolved.Written(read.source());
            }
        }
        if (stored.isPresent()) {
            return new Resolved.Stored(new ContentPin(name, stored.get().latestVersion()));
        }
        return new Resolved.Missing(List.of(new TemplateProblem(name, 0, 0,
                "no template named " + name + " is stored, nor written in templates.dir")));
    }

    /** The template {@code name} resolves to, compiled; every problem, including a store that cannot be read. */
    public LoadResult load(String name) {
        try {
            Resolved resolved = resolve(name);
            if (resolved instanceof Resolved.Stored s) {
                return pinned.load(s.pin());
            }
            if (resolved instanceof Resolved.Written w) {
                return TemplateLoader.compile(w.source(), Optional.empty());
            }
            return new LoadResult.Invalid(((Resolved.Missing) resolved).problems());
        } catch (SQLException e) {
            return unreadable(name, e);
        }
    }

    /** Every problem of {@code name}'s template with these recipient fields, as {@link TemplateLoader#check}. */
    public List<TemplateProblem> check(String name, Set<String> availableFields) {
        if (disk.has(name) && !disk.read(name).problems().isEmpty()) {
            return disk.check(name, availableFields);
        }
        return problems(load(name), availableFields);
    }

    /** Every problem of a pinned version with these recipient fields. */
    public List<TemplateProblem> check(ContentPin pin, Set<String> availableFields) throws SQLException {
        return problems(pinned.load(pin), availableFields);
    }

    private static List<TemplateProblem> problems(LoadResult loaded, Set<String> availableFields) {
        return loaded instanceof LoadResult.Loaded ok ? ok.template().check(availableFields)
                : ((LoadResult.Invalid) loaded).problems();
    }

    /**
     * The pin for {@code name}: its latest stored version, or the directory's text stored first as a
     * new version (saved by {@code by}) when it was never stored.
     *
     * @throws dev.mailrun.campaign.model.CampaignException when the name resolves to nothing usable
     */
    public ContentPin pin(String name, String by) throws SQLException {
        Resolved resolved = resolve(name);
        if (resolved instanceof Resolved.Stored s) {
            return s.pin();
        }
        if (resolved instanceof Resolved.Missing m) {
            throw new dev.mailrun.campaign.model.CampaignException("template " + name + " cannot be used: " + m.problems().get(0));
        }
        TemplateStore.Saved saved = store.save(((Resolved.Written) resolved).source(), by);
        if (saved instanceof TemplateStore.Saved.NewVersion v) {
            return new ContentPin(name, v.version());
        }
        if (saved instanceof TemplateStore.Saved.Unchanged u) {
            return new ContentPin(name, u.version());
        }
        throw new dev.mailrun.campaign.model.CampaignException("template " + name + " cannot be used: "
                + ((TemplateStore.Saved.Refused) saved).problems().get(0));
    }

    /**
     * {@code form}'s message placed into its layout as the template {@code name} ({@link OwnMessageComposer}),
     * compiled; or every problem, an unknown layout among them. Nothing is stored.
     */
    public OwnMessageComposer.Composition compose(String name, MessageForm form) throws SQLException {
        Resolved layout = form.layout().equals(name) ? itself(name) : resolve(form.layout());
        TemplateSource source;
        if (layout instanceof Resolved.Stored s) {
            source = TemplateStore.source(store.version(s.pin().template(), Optional.of(s.pin().version())));
        } else if (layout instanceof Resolved.Written w) {
            source = w.source();
        } else {
            // The message is still checked, in a bare layout, so that every problem is reported at once.
            List<TemplateProblem> problems = new ArrayList<>();
            problems.add(new TemplateProblem("layout " + form.layout(), 0, 0, ((Resolved.Missing) layout).problems().get(0).message()));
            TemplateSource bare = TemplateSource.of(form.layout(), "", "{{ content }}", "{{ content }}", Optional.empty());
            if (new OwnMessageComposer(store.maxBytes()).compose(name, form.message(), bare)
                    instanceof OwnMessageComposer.Composition.Refused refused) {
                problems.addAll(refused.problems());
            }
            return new OwnMessageComposer.Composition.Refused(problems);
        }
        return new OwnMessageComposer(store.maxBytes()).compose(name, form.message(), source);
    }

    /** A layout named as the message's own template: storing the message would replace the layout it is placed into. */
    private static Resolved itself(String name) {
        return new Resolved.Missing(List.of(new TemplateProblem(name, 0, 0,
                "the message is stored as template " + name + ", so its layout must be another template")));
    }

    /**
     * Stores a composed message as {@code source.name()}'s next version (or finds it unchanged), {@code message}
     * kept with it as it was written.
     *
     * @throws dev.mailrun.campaign.model.CampaignException when the store refuses it (too large)
     */
    public void save(TemplateSource source, MessageForm message, String by) throws SQLException {
        if (store.save(source, by, Optional.of(message)) instanceof TemplateStore.Saved.Refused refused) {
            throw new dev.mailrun.campaign.model.CampaignException("template " + source.name() + " cannot be stored: "
                    + refused.problems().get(0));
        }
    }

    /** The stored templates and their versions. */
    public TemplateStore store() {
        return store;
    }

    /** The pinned versions, compiled and cached. */
    public PinnedTemplates pinned() {
        return pinned;
    }

    private static LoadResult unreadable(String name, SQLException e) {
        return new LoadResult.Invalid(List.of(new TemplateProblem(name, 0, 0,
                "the template store cannot be read: " + e.getMessage())));
    }
}
