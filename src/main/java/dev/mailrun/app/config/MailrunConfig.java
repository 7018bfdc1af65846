package dev.mailrun.app.config;

import java.nio.file.Path;
import java.time.Duration;

/** The whole validated configuration, built once at start. */
public record MailrunConfig(DbConfig db, TickConfig tick, Path templatesDir, LogConfig log) {

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
                raw.duration("tick.shutdown-grace", Duration.ofSeconds(1)));
        LogConfig log = new LogConfig(
                raw.choice("log.format", LogConfig.Format.class),
                raw.choice("log.level", LogConfig.Level.class));
        return new MailrunConfig(db, tick, Path.of(raw.string("templates.dir")), log);
    }
}
