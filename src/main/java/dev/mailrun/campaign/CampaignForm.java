package dev.mailrun.campaign;

import dev.mailrun.campaign.content.Contents;
import dev.mailrun.campaign.model.CampaignTime;
import dev.mailrun.campaign.model.CustomHeaders;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.model.SendWindows;
import dev.mailrun.campaign.model.WebVersionMode;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.template.LoadResult;
import dev.mailrun.mail.template.TemplateDefaults;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Everything {@code campaign create} takes, as the text an operator gave, turned into a
 * {@link NewCampaign} and its route — the one check of a new campaign, which the CLI
 * ({@code campaign create}) and the API ({@code POST /campaigns}) both run before
 * {@link Campaigns#create}. Every bad value is reported at once, each with the domain's name of its
 * field and a reason that names no interface's words: the CLI prints the field as its option, the API
 * as its JSON field, the console next to its form field. The start and the expiry are read by
 * {@link CampaignTime}; whether they lie in the future is checked where the clock is, on create and update.
 * Without a from, the template's ({@code template.properties}) is taken with its display name; without a
 * reply-to, the template's ({@link #parse(Relays, Contents)}). Without a web version ({@code personal} or
 * {@code anonymous}), the campaign follows webversion.personal.
 */
public record CampaignForm(String name, String template, Optional<String> from, Optional<String> fromName, Optional<String> replyTo,
                           Optional<String> subject, Optional<String> startAt, Optional<Double> rate, List<String> windows,
                           Optional<String> expireAt, Optional<String> relay, List<CustomHeaders.Header> headers,
                           Optional<String> webVersion) {

    /** Slowest --rate: a campaign's cap, like smtp.rate, from a hundredth of a message per second. */
    public static final double MIN_RATE = 0.01;
    /** The earliest and latest start or expiry ({@link CampaignTime}). */
    public static final Instant EARLIEST = CampaignTime.EARLIEST;
    public static final Instant LATEST = CampaignTime.LATEST;

    private static final String TEMPLATE_NAME = "[A-Za-z0-9_-]+";
    private static final String NO_FROM = "the template has no from; give one";

    public CampaignForm {
        from = from == null ? Optional.empty() : from;
        windows = windows == null ? List.of() : List.copyOf(windows);
        headers = headers == null ? List.of() : List.copyOf(headers);
        webVersion = webVersion == null ? Optional.empty() : webVersion;
    }

    /** Following webversion.personal for its web version pages. */
    public CampaignForm(String name, String template, Optional<String> from, Optional<String> fromName, Optional<String> replyTo,
                        Optional<String> subject, Optional<String> startAt, Optional<Double> rate, List<String> windows,
                        Optional<String> expireAt, Optional<String> relay, List<CustomHeaders.Header> headers) {
        this(name, template, from, fromName, replyTo, subject, startAt, rate, windows, expireAt, relay, headers, Optional.empty());
    }

    /** The same form naming another template. */
    public CampaignForm withTemplate(String other) {
        return new CampaignForm(name, other, from, fromName, replyTo, subject, startAt, rate, windows, expireAt, relay, headers,
                webVersion);
    }

    /** Without headers of the operator's own. */
    public CampaignForm(String name, String template, Optional<String> from, Optional<String> fromName, Optional<String> replyTo,
                        Optional<String> subject, Optional<String> startAt, Optional<Double> rate, List<String> windows,
                        Optional<String> expireAt, Optional<String> relay) {
        this(name, template, from, fromName, replyTo, subject, startAt, rate, windows, expireAt, relay, List.of());
    }

    /**
     * The campaign and its route, what the form leaves out of the sender taken from the template's
     * {@code template.properties}: its from (address and display name, the form's own display name
     * winning) when the form gives none, its reply-to when the form gives none.
     *
     * @throws InvalidFields as {@link #parse(Relays)}; naming {@code from} when neither gives one
     */
    public Parsed parse(Relays relays, Contents templates) {
        if (from.isPresent() && replyTo.isPresent() || template == null || !template.matches(TEMPLATE_NAME)) {
            return parse(relays);
        }
        LoadResult loaded = templates.load(template);
        if (!(loaded instanceof LoadResult.Loaded ok)) {
            if (from.isPresent()) {
                return parse(relays); // creating it reports the template
            }
            throw InvalidFields.of("template", "template " + template + " cannot be used: "
                    + Campaigns.first(((LoadResult.Invalid) loaded).problems()));
        }
        TemplateDefaults defaults = ok.template().defaults();
        Optional<TemplateDefaults.Sender> sender = from.isPresent() ? Optional.empty() : defaults.sender();
        if (from.isEmpty() && sender.isEmpty()) {
            throw InvalidFields.of("from", NO_FROM);
        }
        return new CampaignForm(name, template, from.or(() -> sender.map(TemplateDefaults.Sender::address)),
                fromName.or(() -> sender.flatMap(TemplateDefaults.Sender::name)), replyTo.or(defaults::replyToAddress),
                subject, startAt, rate, windows, expireAt, relay, headers, webVersion).parse(relays);
    }

    /**
     * The campaign and its route (empty: the configured default route), as given: a form without a
     * from is refused.
     *
     * @throws InvalidFields with every problem found, in the order of the command's options
     */
    public Parsed parse(Relays relays) {
        List<InvalidFields.Problem> problems = new ArrayList<>();
        if (from.isEmpty()) {
            problems.add(new InvalidFields.Problem("from", NO_FROM));
        }
        if (rate.isPresent() && !(rate.get() >= MIN_RATE && rate.get() <= SmtpSettings.MAX_RATE)) {
            problems.add(new InvalidFields.Problem("rate", "must be " + plain(MIN_RATE) + "–" + plain(SmtpSettings.MAX_RATE)
                    + " messages per second, got " + rate.get()));
        }
        Optional<RelayRoute> route = field(problems, "relay", () -> relay.map(r -> {
            RelayRoute parsed = RelayRoute.parse(r);
            relays.unknownIn(parsed).ifPresent(problem -> {
                throw new IllegalArgumentException(problem);
            });
            return parsed;
        }));
        Optional<Instant> start = field(problems, "startAt", () -> startAt.map(CampaignTime::parse));
        Optional<SendWindows> window = field(problems, "windows",
                () -> windows.isEmpty() ? Optional.empty() : Optional.of(SendWindows.parse(windows)));
        Optional<Instant> expiry = field(problems, "expireAt", () -> expireAt.map(CampaignTime::parse));
        Optional<WebVersionMode> pages = field(problems, "webVersion", () -> webVersion.map(WebVersionMode::parse));
        CustomHeaders added = new CustomHeaders(headers);
        NewCampaign campaign = null;
        try {
            campaign = new NewCampaign(name, template, from.orElse(""), fromName, replyTo, subject, start, rate, window, expiry, added,
                    pages);
        } catch (InvalidFields e) {
            // A field already found wrong here is not reported twice (a rate out of range, the headers).
            e.problems().stream().filter(p -> problems.stream().noneMatch(q -> q.field().equals(p.field()))).forEach(problems::add);
        }
        if (!problems.isEmpty()) {
            throw new InvalidFields(problems);
        }
        return new Parsed(campaign, route);
    }

    /** A valid campaign and the route it sends through. */
    public record Parsed(NewCampaign campaign, Optional<RelayRoute> route) {}

    private static <T> Optional<T> field(List<InvalidFields.Problem> problems, String field, Supplier<Optional<T>> parse) {
        try {
            return parse.get();
        } catch (InvalidFields e) {
            problems.addAll(e.problems());   // a parser that names the value at fault (a send window)
            return Optional.empty();
        } catch (IllegalArgumentException | DateTimeParseException e) {
            problems.add(new InvalidFields.Problem(field, e.getMessage()));
            return Optional.empty();
        }
    }

    private static String plain(double d) {
        return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }
}
