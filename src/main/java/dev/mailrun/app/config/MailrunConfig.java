package dev.mailrun.app.config;

import dev.mailrun.campaign.send.SendSettings;
import dev.mailrun.campaign.bounce.BounceSettings;
import dev.mailrun.campaign.importing.ImportSettings;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.bounce.MailboxSettings;
import dev.mailrun.mail.dkim.DkimSettings;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.smtp.TlsMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/** The whole validated configuration, built once at start. */
public record MailrunConfig(DbConfig db, TickConfig tick, SmtpSettings smtp, SendSettings send, Path templatesDir,
                            UnsubscribeConfig unsubscribe, String httpBind, BounceConfig bounce,
                            Optional<DkimSettings> dkim, ImportConfig imports, LogConfig log) {

    static MailrunConfig from(RawConfig raw) {
        DbConfig db = new DbConfig(
                raw.optional("db.url"),
                raw.string("db.user"),
                raw.string("db.password"),
                raw.integer("db.pool-size", 2, 500),
                Path.of(raw.string("db.embedded.dir")));
        TickConfig tick = new TickConfig(
                raw.duration("tick.interval", Duration.ofSeconds(1)),
                raw.duration("tick.safety-margin", Duration.ZERO),
                raw.duration("tick.shutdown-grace", Duration.ofSeconds(1)),
                raw.duration("tick.run-history", Duration.ZERO));
        SmtpSettings smtp = smtp(raw);
        SendSettings send = validated(() -> new SendSettings(
                smtp.host() + ":" + smtp.port(),
                smtp.ratePerSecond(),
                raw.integer("send.batch-max", 1, 10_000),
                raw.integer("send.max-attempts", 1, 100),
                raw.duration("send.retry-base", Duration.ofSeconds(1)),
                raw.decimal("send.pause-on-failure-rate", 0.001, 1),
                raw.integer("send.failure-window", 1, 100_000),
                100, Duration.ofMillis(250), Duration.ofMillis(200),
                raw.decimal("bounce.pause-rate", 0.0001, 1), raw.integer("bounce.min-sample", 1, 10_000_000)));
        UnsubscribeConfig unsubscribe = new UnsubscribeConfig(
                raw.optional("unsubscribe.secret").map(Secret::of),
                raw.optional("unsubscribe.base-url"),
                raw.optional("unsubscribe.mailto"),
                raw.optionalInteger("http.port", 0, 65535));
        LogConfig log = new LogConfig(
                raw.choice("log.format", LogConfig.Format.class),
                raw.choice("log.level", LogConfig.Level.class));
        return new MailrunConfig(db, tick, smtp, send, Path.of(raw.string("templates.dir")), unsubscribe,
                raw.string("http.bind"), bounce(raw), dkim(raw), imports(raw), log);
    }

    private static BounceConfig bounce(RawConfig raw) {
        Optional<MailboxSettings> mailbox = raw.optional("bounce.imap.host").map(host -> validated(() -> new MailboxSettings(
                host, raw.integer("bounce.imap.port", 1, 65535), raw.bool("bounce.imap.tls"),
                raw.required("bounce.imap.user"), raw.string("bounce.imap.password"), raw.string("bounce.imap.folder"),
                raw.optional("bounce.imap.processed-folder"))));
        BounceSettings settings = validated(() -> new BounceSettings(raw.integer("bounce.soft-limit", 1, 1000),
                raw.decimal("bounce.pause-rate", 0.0001, 1), raw.integer("bounce.min-sample", 1, 10_000_000)));
        return new BounceConfig(mailbox, raw.duration("bounce.interval", Duration.ofSeconds(10)),
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

    private static SmtpSettings smtp(RawConfig raw) {
        String host = raw.string("smtp.host");
        int port = raw.integer("smtp.port", 1, 65535);
        TlsMode tls = raw.choice("smtp.tls", TlsMode.class);
        Optional<String> user = raw.optional("smtp.username");
        Optional<Secret> password = raw.optional("smtp.password").map(Secret::of);
        if (user.isPresent() && password.isEmpty()) {
            throw ConfigException.invalid("smtp.password", "must be set when smtp.username is set");
        }
        return validated(() -> new SmtpSettings(host, port, tls, user, user.isPresent() ? password : Optional.empty(),
                raw.duration("smtp.connect-timeout", Duration.ofMillis(100)),
                raw.duration("smtp.read-timeout", Duration.ofMillis(100)),
                raw.duration("smtp.write-timeout", Duration.ofMillis(100)),
                raw.string("smtp.helo-name"),
                raw.integer("smtp.connections", 1, SmtpSettings.MAX_CONNECTIONS),
                raw.decimal("smtp.rate", 0, SmtpSettings.MAX_RATE)));
    }

    /** Records of other packages validate with IllegalArgumentException; the operator sees a config error. */
    private static <T> T validated(Supplier<T> build) {
        try {
            return build.get();
        } catch (IllegalArgumentException e) {
            throw new ConfigException("configuration: " + e.getMessage());
        }
    }

    @Override
    public String toString() {
        return "MailrunConfig[db=" + db + ", tick=" + tick + ", smtp=" + smtp + ", send=" + send + ", templatesDir="
                + templatesDir + ", unsubscribe=" + unsubscribe + ", httpBind=" + httpBind + ", bounce=" + bounce + ", dkim=" + dkim
                + ", imports=" + imports + ", log=" + log + "]";
    }
}
