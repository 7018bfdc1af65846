package dev.mailrun.app.config;

import dev.mailrun.campaign.bounce.BounceSettings;
import dev.mailrun.campaign.importing.ImportSettings;
import dev.mailrun.campaign.send.policy.DailyCap;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.campaign.send.scope.FailureRule;
import dev.mailrun.campaign.send.scope.FlushCadence;
import dev.mailrun.campaign.send.scope.HardBounceRule;
import dev.mailrun.campaign.send.scope.SendSettings;
import dev.mailrun.events.EventsSettings;
import dev.mailrun.http.api.ApiSettings;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.bounce.MailboxSettings;
import dev.mailrun.mail.dkim.DkimSettings;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.smtp.TlsMode;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * The whole validated configuration, built once at start by {@link #from} (the demo builds its own
 * through the same canonical constructor): one way to make one, so a new part cannot be left out
 * by a shorter constructor that fills it with a default.
 */
public record MailrunConfig(DbConfig db, TickConfig tick, SendSettings send, Path templatesDir,
                            UnsubscribeConfig unsubscribe, String httpBind, AdminConfig admin, BounceConfig bounce,
                            Optional<DkimSettings> dkim, ImportConfig imports, LogConfig log, FeedbackConfig feedback,
                            Relays relays, EventsSettings events, ContentConfig content, TrackingConfig tracking,
                            RepliesConfig replies, WebVersionConfig webVersion, SignupConfig signup, Duration smtpKeepWarm) {

    /** @param fallbackHost this worker's host where the machine's name cannot be resolved ({@link TickConfig}) */
    static MailrunConfig from(RawConfig raw, String fallbackHost) {
        DbConfig db = new DbConfig(
                raw.optional("db.url"),
                raw.string("db.user"),
                raw.string("db.password"),
                raw.integer("db.pool-size"),
                Path.of(raw.string("db.embedded.dir")));
        TickConfig tick = new TickConfig(
                raw.duration("tick.interval"),
                raw.duration("tick.safety-margin"),
                raw.duration("tick.shutdown-grace"),
                raw.duration("tick.run-history"),
                raw.duration("tick.overlap-wait"),
                TickConfig.lease(raw.duration("tick.lease"), raw.duration("tick.heartbeat")),
                fallbackHost);
        Optional<Integer> httpPort = raw.optionalInteger("http.port");
        FeedbackConfig feedback = FeedbackConfig.from(raw, httpPort);
        // The relay echoes the metadata of the providers whose feedback mailrun takes.
        Relays relays = RelaysConfig.from(raw, smtp(raw).withMessageTags(feedback.messageTags()), feedback.messageTags());
        SendSettings send = validated(() -> new SendSettings(
                raw.integer("send.batch-max"),
                raw.integer("send.max-attempts"),
                raw.duration("send.retry-base"),
                new FailureRule(raw.decimal("send.pause-on-failure-rate"), raw.integer("send.failure-window")),
                FlushCadence.DEFAULT, SendSettings.BATCH_OVERHEAD,
                new HardBounceRule(raw.decimal("bounce.pause-rate"), raw.integer("bounce.min-sample")),
                dailyCap(raw), PolicyConfig.domainGroups(raw)));
        UnsubscribeConfig unsubscribe = new UnsubscribeConfig(
                raw.optional("unsubscribe.secret").map(Secret::of),
                raw.optional("unsubscribe.base-url"),
                raw.optional("unsubscribe.mailto"),
                httpPort);
        if (raw.bool("signup.enabled") && (unsubscribe.baseUrl().isEmpty() || unsubscribe.secret().isEmpty())) {
            throw ConfigException.invalid("signup.enabled", "needs unsubscribe.base-url (confirmation links are made on it)"
                    + " and unsubscribe.secret (it signs the forms and links)");
        }
        BounceConfig bounce = bounce(raw);
        if (unsubscribe.mailto().isPresent() && bounce.mailbox().isEmpty()) {
            // Requests sent to an address no task reads would be lost; without a mailbox no mailto is advertised.
            throw ConfigException.invalid("unsubscribe.mailto", "is set but no mailbox reads the requests sent to it:"
                    + " set bounce.imap.host (and deliver that address to the bounce mailbox) or leave unsubscribe.mailto empty");
        }
        LogConfig log = new LogConfig(
                raw.choice("log.format", LogConfig.Format.class),
                raw.choice("log.level", LogConfig.Level.class));
        String httpBind = BindAddress.check("http.bind", raw.string("http.bind"));
        return new MailrunConfig(db, tick, send, Path.of(raw.string("templates.dir")), unsubscribe,
                httpBind, admin(raw, unsubscribe.httpPort()), bounce, dkim(raw), imports(raw), log, feedback, relays,
                EventsConfig.from(raw), ContentConfig.from(raw), TrackingConfig.from(raw, httpPort),
                RepliesConfig.from(raw, bounce, unsubscribe), WebVersionConfig.from(raw), SignupConfig.from(raw),
                raw.duration("smtp.keep-warm"));
    }

    private static DailyCap dailyCap(RawConfig raw) {
        ZoneId zone;
        try {
            zone = ZoneId.of(raw.string("policy.day-zone"));
        } catch (DateTimeException e) {
            throw ConfigException.invalid("policy.day-zone", "is not a known time zone (use a region such as Europe/Berlin, or UTC), got '"
                    + raw.string("policy.day-zone") + "'");
        }
        OptionalLong cap = raw.optionalInteger("policy.daily-cap").map(OptionalLong::of).orElse(OptionalLong.empty());
        List<Long> warmup = raw.optional("policy.warmup").map(MailrunConfig::volumes).orElse(List.of());
        Optional<Double> growth = raw.optional("policy.warmup-growth").map(v -> raw.decimal("policy.warmup-growth"));
        Optional<LocalDate> start = raw.optional("policy.warmup-start").map(v -> {
            try {
                return LocalDate.parse(v);
            } catch (DateTimeParseException e) {
                throw ConfigException.invalid("policy.warmup-start", "must be a date such as 2026-12-01, got '" + v + "'");
            }
        });
        if (!warmup.isEmpty() && start.isEmpty()) {
            throw ConfigException.invalid("policy.warmup-start", "must be set when policy.warmup is (the warm-up's day 1)");
        }
        if (warmup.isEmpty() && start.isPresent()) {
            throw ConfigException.invalid("policy.warmup-start", "is set but policy.warmup is empty");
        }
        if (warmup.isEmpty() && growth.isPresent()) {
            throw ConfigException.invalid("policy.warmup-growth", "is set but policy.warmup is empty (the volume it grows from)");
        }
        if (cap.isPresent()) {
            // A day sends the lower of the two, so a volume above the cap would be a warm-up that is not one.
            warmup.stream().filter(v -> v > cap.getAsLong()).findFirst().ifPresent(v -> {
                throw ConfigException.invalid("policy.warmup", "volume " + v + " is above policy.daily-cap (" + cap.getAsLong()
                        + "); every warm-up volume must be at most the cap");
            });
        }
        return validated(() -> new DailyCap(cap, warmup, growth, start, zone));
    }

    /** {@code 500,1000,2000}: whole numbers 1–{@link DailyCap#MAX_VOLUME}, in order of the days. */
    private static List<Long> volumes(String value) {
        List<Long> volumes = new ArrayList<>();
        for (String part : value.split(",", -1)) {
            String v = part.strip();
            if (!v.matches("\\d{1,10}") || Long.parseLong(v) < 1 || Long.parseLong(v) > DailyCap.MAX_VOLUME) {
                throw ConfigException.invalid("policy.warmup", "must be daily volumes 1–" + DailyCap.MAX_VOLUME
                        + " separated by commas (500,1000,2000), got '" + value + "'");
            }
            volumes.add(Long.parseLong(v));
        }
        return volumes;
    }

    private static AdminConfig admin(RawConfig raw, Optional<Integer> httpPort) {
        Optional<Integer> port = raw.optionalInteger("admin.port");
        String bind = BindAddress.check("admin.bind", raw.string("admin.bind"));
        if (port.isPresent() && port.equals(httpPort)) {
            // One port cannot be both: the admin routes must never answer where the public endpoint does.
            throw ConfigException.invalid("admin.port", "must differ from http.port (" + httpPort.get() + ")");
        }
        ApiSettings api = new ApiSettings(raw.decimal("api.rate"), raw.integer("api.burst"), raw.integer("api.max-body-bytes"),
                raw.integer("api.max-upload-bytes"));
        return new AdminConfig(port, bind, raw.optional("admin.token").map(Secret::of), api, ConsoleConfig.from(raw));
    }

    private static BounceConfig bounce(RawConfig raw) {
        Optional<MailboxSettings> mailbox = raw.optional("bounce.imap.host").map(host -> validated(() -> new MailboxSettings(
                host, raw.integer("bounce.imap.port"), raw.bool("bounce.imap.tls"),
                raw.required("bounce.imap.user"), raw.string("bounce.imap.password"), raw.string("bounce.imap.folder"),
                raw.optional("bounce.imap.processed-folder"))));
        BounceSettings settings = validated(() -> new BounceSettings(raw.integer("bounce.soft-limit"),
                raw.decimal("bounce.pause-rate"), raw.integer("bounce.min-sample"), raw.decimal("bounce.complaint-pause-rate")));
        return new BounceConfig(mailbox, raw.duration("bounce.interval"),
                raw.optional("bounce.return-path-domain"), settings);
    }

    private static Optional<DkimSettings> dkim(RawConfig raw) {
        Optional<String> domain = raw.optional("dkim.domain");
        if (domain.isEmpty()) {
            if (raw.optional("dkim.selector").isPresent() || raw.optional("dkim.private-key-file").isPresent()) {
                throw ConfigException.invalid("dkim.domain", "must be set when dkim.selector or dkim.private-key-file is");
            }
            return Optional.empty();
        }
        return Optional.of(validated(() -> new DkimSettings(domain.get(), raw.required("dkim.selector"),
                Path.of(raw.required("dkim.private-key-file")))));
    }

    private static ImportConfig imports(RawConfig raw) {
        int field = raw.integer("import.max-field-bytes", ImportSettings.MIN_LIMIT_BYTES, ImportSettings.MAX_LIMIT_BYTES);
        int row = raw.integer("import.max-row-bytes", ImportSettings.MIN_LIMIT_BYTES, ImportSettings.MAX_LIMIT_BYTES);
        if (field > row) {
            throw ConfigException.invalid("import.max-field-bytes", "must not exceed import.max-row-bytes (" + row + "), got " + field);
        }
        return new ImportConfig(raw.bool("import.reject-disposable"), raw.bool("import.reject-role"),
                raw.optional("import.disposable-list").map(Path::of), ImportSettings.defaults().withLimits(field, row));
    }

    static SmtpSettings smtp(RawConfig raw) {
        String host = raw.string("smtp.host");
        int port = raw.integer("smtp.port");
        TlsMode tls = raw.choice("smtp.tls", TlsMode.class);
        Optional<String> user = raw.optional("smtp.username");
        Optional<Secret> password = raw.optional("smtp.password").map(Secret::of);
        if (user.isPresent() && password.isEmpty()) {
            throw ConfigException.invalid("smtp.password", "must be set when smtp.username is set");
        }
        return validated(() -> new SmtpSettings(host, port, tls, user, user.isPresent() ? password : Optional.empty(),
                raw.duration("smtp.connect-timeout"),
                raw.duration("smtp.read-timeout"),
                raw.duration("smtp.write-timeout"),
                raw.string("smtp.helo-name"),
                raw.integer("smtp.connections"),
                raw.decimal("smtp.rate"))
                .withConnections(raw.integer("smtp.connections"), raw.integer("smtp.max-connections"))
                .withChunking(raw.bool("smtp.chunking")));
    }

    /** Records of other packages validate with IllegalArgumentException; the operator sees a config error. */
    static <T> T validated(Supplier<T> build) {
        try {
            return build.get();
        } catch (IllegalArgumentException e) {
            throw new ConfigException("configuration: " + e.getMessage());
        }
    }

    @Override
    public String toString() {
        return "MailrunConfig[db=" + db + ", tick=" + tick + ", send=" + send + ", templatesDir="
                + templatesDir + ", unsubscribe=" + unsubscribe + ", httpBind=" + httpBind + ", admin=" + admin + ", bounce=" + bounce + ", dkim=" + dkim
                + ", imports=" + imports + ", log=" + log + ", feedback=" + feedback + ", relays=" + relays + ", replies=" + replies + ", webVersion=" + webVersion
                + ", signup=" + signup + ", smtpKeepWarm=" + smtpKeepWarm + "]";
    }
}
