package dev.mailrun.campaign;

import dev.mailrun.campaign.content.Contents;
import dev.mailrun.campaign.content.MessageForm;
import dev.mailrun.campaign.content.OwnMessageComposer;
import dev.mailrun.campaign.model.AbTest;
import dev.mailrun.campaign.model.Attachment;
import dev.mailrun.campaign.model.ContentPin;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.model.TrackingMode;
import dev.mailrun.campaign.model.Variant;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.campaign.store.AbTable;
import dev.mailrun.campaign.store.AttachmentTable;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.ContentPinTable;
import dev.mailrun.campaign.store.TrackedLinkTable;
import dev.mailrun.campaign.variant.AbForm;
import dev.mailrun.campaign.variant.VariantChecks;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.template.LoadResult;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * Creating a campaign: its values, its template, its A/B variants' templates, its start and its expiry
 * (both in the future) checked first, every problem reported at once as a field of the domain
 * ({@link InvalidFields}), then the campaign, its route, its lists ({@link CampaignLists}), its files, its
 * tracking, its A/B test and the template versions it pins ({@link Contents}) stored in one transaction.
 * What the configuration allows it is told ({@link CampaignSetup}): a tracked campaign only while
 * tracking is on, an A/B test picked by replies only while replies are counted. The caller has checked
 * that every relay of a route given as a value is configured (a form's route is checked here).
 */
final class CampaignCreation {

    /** Who pins a campaign's content at its creation, in the record of its pins. */
    static final String CREATED = "campaign creation";

    private final DataSource dataSource;
    private final Contents templates;
    private final Clock clock;
    private final CampaignSetup setup;
    private final CampaignTable store = new CampaignTable();
    private final AttachmentTable files = new AttachmentTable();
    private final TrackedLinkTable trackedLinks = new TrackedLinkTable();
    private final AbTable abTests = new AbTable();
    private final ContentPinTable pins = new ContentPinTable();
    private final CampaignLists targets = new CampaignLists();
    private final CampaignSegments segments = new CampaignSegments();

    CampaignCreation(DataSource dataSource, Contents templates, Clock clock, CampaignSetup setup) {
        this.dataSource = dataSource;
        this.templates = templates;
        this.clock = clock;
        this.setup = setup;
    }

    /**
     * The one creation the CLI, the API and the console share: the form, the A/B options and what only
     * the templates and the clock can tell checked together, so every bad field is reported at once.
     *
     * @throws InvalidFields every problem found, each with the domain's name of its field
     */
    long create(CampaignForm form, Relays relays, AbForm abForm, List<Attachment> attachments, Optional<TrackingMode> tracking,
                AudienceNames lists) throws SQLException {
        Checked checked = check(form, relays, abForm, tracking, lists);
        if (!checked.problems().isEmpty()) {
            throw new InvalidFields(checked.problems());
        }
        return store(checked.parsed().orElseThrow().campaign(), checked.parsed().get().route(), attachments, tracking, checked.ab(),
                lists);
    }

    /**
     * As {@link #create(CampaignForm, Relays, AbForm, List, Optional)} for a campaign with its own message:
     * the form is checked with the layout in the template's place (the layout's properties give the
     * sender), the message is placed into the layout, and only when nothing is wrong is it stored as the
     * template named after the campaign ({@link MessageForm#templateName}), which the campaign pins.
     *
     * @throws InvalidFields every problem at once: the form's, and the message's as subject, body, text or layout
     */
    long create(CampaignForm form, Relays relays, AbForm abForm, List<Attachment> attachments, Optional<TrackingMode> tracking,
                MessageForm message, AudienceNames lists) throws SQLException {
        String name = MessageForm.templateName(form.name() == null ? "" : form.name());
        Checked checked = check(form.withTemplate(message.layout()), relays, abForm, tracking, lists);
        List<InvalidFields.Problem> problems = new ArrayList<>();
        // The layout's own problems are the composer's to report, once.
        checked.problems().stream().filter(p -> !p.field().equals("template")).forEach(problems::add);
        OwnMessageComposer.Composition composition = templates.compose(name, message);
        if (composition instanceof OwnMessageComposer.Composition.Refused refused) {
            refused.problems().forEach(p -> problems.add(new InvalidFields.Problem(message.fieldOf(name, p), p.toString())));
        }
        if (!problems.isEmpty()) {
            throw new InvalidFields(problems);
        }
        templates.save(((OwnMessageComposer.Composition.Composed) composition).source(), message, CREATED);
        NewCampaign n = checked.parsed().orElseThrow().campaign();
        NewCampaign own = new NewCampaign(n.name(), name, n.fromAddress(), n.fromName(), n.replyTo(), n.subject(), n.startAt(),
                n.rateCap(), n.windows(), n.expireAt(), n.headers(), n.webVersion());
        return store(own, checked.parsed().get().route(), attachments, tracking, checked.ab(), lists);
    }

    /** What a form would create, and every problem found (none: it can be created). */
    record Checked(Optional<CampaignForm.Parsed> parsed, Optional<AbTest> ab, List<InvalidFields.Problem> problems) {}

    Checked check(CampaignForm form, Relays relays, AbForm abForm, Optional<TrackingMode> tracking, AudienceNames lists) {
        List<InvalidFields.Problem> problems = new ArrayList<>();
        Optional<CampaignForm.Parsed> parsed = collect(problems, () -> Optional.of(form.parse(relays, templates)));
        Optional<AbTest> ab = collect(problems, abForm::parse);
        if (problems.stream().noneMatch(p -> p.field().equals("template"))) {
            templateProblem(form.template()).ifPresent(problems::add);
        }
        parsed.ifPresent(p -> problems.addAll(timeProblems(p.campaign())));
        trackingProblem(tracking).ifPresent(problems::add);
        ab.ifPresent(test -> problems.addAll(VariantChecks.problemsAtCreate(templates, test, tracking, setup.repliesCounted())));
        problems.addAll(listProblems(lists));
        return new Checked(parsed, ab, List.copyOf(problems));
    }

    /** A campaign already read into its values: the checks only the templates and the clock can make, then the store. */
    long create(NewCampaign campaign, Optional<RelayRoute> route, List<Attachment> attachments,
                Optional<TrackingMode> tracking, Optional<AbTest> ab) throws SQLException {
        List<InvalidFields.Problem> problems = new ArrayList<>();
        templateProblem(campaign.template()).ifPresent(problems::add);
        problems.addAll(timeProblems(campaign));
        trackingProblem(tracking).ifPresent(problems::add);
        ab.ifPresent(test -> problems.addAll(VariantChecks.problemsAtCreate(templates, test, tracking, setup.repliesCounted())));
        if (!problems.isEmpty()) {
            throw new InvalidFields(problems);
        }
        return store(campaign, route, attachments, tracking, ab, AudienceNames.NONE);
    }

    /** Each list or segment name that names none; read again under a lock when the campaign is stored. */
    private List<InvalidFields.Problem> listProblems(AudienceNames audience) {
        List<InvalidFields.Problem> problems = new ArrayList<>();
        try {
            if (!audience.lists().isEmpty()) {
                problems.addAll(unknown(() -> Transactions.inTransaction(dataSource, c -> targets.resolve(c, audience.lists()))));
            }
            if (!audience.segments().isEmpty()) {
                problems.addAll(unknown(() -> Transactions.inTransaction(dataSource, c -> segments.resolve(c, audience.segments()))));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not read the lists and segments: " + e.getMessage(), e);
        }
        return problems;
    }

    private interface Resolve {
        void run() throws SQLException;
    }

    private static List<InvalidFields.Problem> unknown(Resolve resolve) throws SQLException {
        try {
            resolve.run();
            return List.of();
        } catch (InvalidFields e) {
            return e.problems();
        }
    }

    private long store(NewCampaign campaign, Optional<RelayRoute> route, List<Attachment> attachments,
                       Optional<TrackingMode> tracking, Optional<AbTest> ab, AudienceNames lists) throws SQLException {
        // Text written in templates.dir and never stored is stored first, as its own version: a save
        // is complete on its own, and a campaign that then fails to store leaves only a version behind.
        ContentPin pin = templates.pin(campaign.template(), CREATED);
        Map<String, ContentPin> variantPins = new LinkedHashMap<>();
        if (ab.isPresent()) {
            for (Variant v : ab.get().variants()) {
                if (v.template().isPresent()) {
                    variantPins.put(v.name(), templates.pin(v.template().get(), CREATED));
                }
            }
        }
        Instant now = clock.instant();
        return Transactions.inTransaction(dataSource, c -> {
            refuseOverPacket(c, attachments);
            long id = store.insert(c, campaign, now);
            pins.pinCampaign(c, id, Optional.empty(), pin, CREATED, now);
            store.setRoute(c, id, route, now);
            targets.setAtCreation(c, id, lists.lists());
            segments.setAtCreation(c, id, lists.segments());
            files.insert(c, id, attachments, now);
            if (tracking.isPresent()) {
                trackedLinks.setMode(c, id, tracking.get(), now);
            }
            if (ab.isPresent()) {
                abTests.insert(c, id, ab.get());
                for (Map.Entry<String, ContentPin> v : variantPins.entrySet()) {
                    pins.pinVariant(c, id, v.getKey(), Optional.empty(), v.getValue(), CREATED, now);
                }
            }
            return id;
        });
    }

    private Optional<InvalidFields.Problem> templateProblem(String template) {
        if (templates.load(template) instanceof LoadResult.Invalid invalid) {
            return Optional.of(new InvalidFields.Problem("template", template + " cannot be used: " + Campaigns.first(invalid.problems())));
        }
        return Optional.empty();
    }

    /** Tracking asked for while it is off: no message would carry a tracked link, and nothing would serve one. */
    private Optional<InvalidFields.Problem> trackingProblem(Optional<TrackingMode> tracking) {
        if (tracking.isPresent() && !setup.trackingEnabled()) {
            return Optional.of(new InvalidFields.Problem("track", "tracking is not enabled (tracking.enabled=true and tracking.base-url)"));
        }
        return Optional.empty();
    }

    /** A start or an expiry already past: one would send at once, the other expire everyone at the first run. */
    private List<InvalidFields.Problem> timeProblems(NewCampaign campaign) {
        Instant now = clock.instant();
        List<InvalidFields.Problem> problems = new ArrayList<>();
        campaign.startAt().filter(at -> !at.isAfter(now))
                .ifPresent(at -> problems.add(new InvalidFields.Problem("startAt", at + " is not in the future (now " + now + ")")));
        campaign.expireAt().filter(at -> !at.isAfter(now))
                .ifPresent(at -> problems.add(new InvalidFields.Problem("expireAt", at + " is not in the future (now " + now + ")")));
        return problems;
    }

    private static <T> Optional<T> collect(List<InvalidFields.Problem> problems, Supplier<Optional<T>> parse) {
        try {
            return parse.get();
        } catch (InvalidFields e) {
            problems.addAll(e.problems());
            return Optional.empty();
        }
    }

    /** A file the server would refuse to take in one statement is refused here, naming the server's limit. */
    private void refuseOverPacket(Connection c, List<Attachment> attachments) throws SQLException {
        if (attachments.isEmpty()) {
            return;
        }
        long packet = files.maxAllowedPacket(c);
        for (Attachment a : attachments) {
            // Room for the statement's other values and the protocol's framing.
            if (a.size() > packet - 64 * 1024) {
                throw InvalidFields.about(a.inline() ? "inline" : "attachments", a.filename(), a.size()
                        + " bytes, too large for the database server's max_allowed_packet (" + packet + ")");
            }
        }
    }
}
