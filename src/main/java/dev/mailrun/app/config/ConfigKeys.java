package dev.mailrun.app.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Every key mailrun understands. {@code mailrun.properties.example} lists the same keys (a test checks). */
public final class ConfigKeys {

    private static final Map<String, ConfigKey> KEYS = new LinkedHashMap<>();

    static {
        // database
        key("db.url", "", "JDBC URL (jdbc:mysql://host:3306/mailrun). Empty: an embedded MariaDB under db.embedded.dir.");
        key("db.user", "root", "Database user.");
        secret("db.password", "", "Database password.");
        key("db.pool-size", "10", "Maximum connections in the pool.");
        key("db.embedded.dir", "data/mariadb", "Where the embedded MariaDB keeps its files when db.url is empty.");
        // scheduler
        key("tick.interval", "5m", "How often the worker fires a tick (e.g. 30s, 5m, PT5M).");
        key("tick.safety-margin", "15s", "A run's deadline is its slot + interval minus this margin.");
        key("tick.shutdown-grace", "30s", "On SIGTERM/SIGINT, how long the running task gets to checkpoint and stop.");
        key("tick.run-history", "30d", "How long the run history (task_run) is kept; 0s keeps it forever.");
        // smtp
        key("smtp.host", "localhost", "SMTP relay host.");
        key("smtp.port", "25", "SMTP relay port.");
        key("smtp.tls", "starttls-optional", "none | starttls-optional | starttls-required | implicit.");
        key("smtp.username", "", "SMTP AUTH user; empty: no AUTH.");
        secret("smtp.password", "", "SMTP AUTH password.");
        key("smtp.connections", "4", "Parallel SMTP connections, each reused for many messages.");
        key("smtp.rate", "10", "Messages per second to this relay, in total across all workers; 0: no limit.");
        key("smtp.connect-timeout", "10s", "SMTP connect timeout (always also bounded by the run's remaining time).");
        key("smtp.read-timeout", "30s", "SMTP read timeout.");
        key("smtp.write-timeout", "30s", "SMTP write timeout.");
        key("smtp.helo-name", "localhost", "Name sent in EHLO/HELO; set it to this host's public name.");
        // sending
        key("send.batch-max", "500", "Largest batch a run claims at once.");
        key("send.max-attempts", "5", "Attempts per recipient before a transient failure becomes failed.");
        key("send.retry-base", "5m", "First retry delay; doubles per attempt, with jitter.");
        key("send.pause-on-failure-rate", "0.10", "Pause a campaign when this fraction of recent attempts failed.");
        key("send.failure-window", "200", "How many recent attempts the failure rate looks at.");
        key("templates.dir", "templates", "Directory holding one folder per template.");
        // unsubscribe and deliverability
        secret("unsubscribe.secret", "", "HMAC key for unsubscribe tokens (at least 32 characters).");
        key("unsubscribe.base-url", "", "Public https URL of the unsubscribe endpoint, e.g. https://mail.example.com/u.");
        key("unsubscribe.mailto", "", "Address for mailto: unsubscribe; empty: unsubscribe@<sender domain>.");
        key("http.port", "", "Port of the unsubscribe endpoint started by worker (and serve); empty: worker starts none.");
        key("http.bind", "127.0.0.1", "Address the unsubscribe endpoint listens on; put an https proxy in front of it.");
        // bounces
        key("bounce.imap.host", "", "IMAP server of the bounce mailbox; empty: no bounce processing.");
        key("bounce.imap.port", "993", "IMAP port.");
        key("bounce.imap.tls", "true", "true: IMAP over TLS (imaps); false: plain IMAP (local servers only).");
        key("bounce.imap.user", "", "IMAP user.");
        secret("bounce.imap.password", "", "IMAP password.");
        key("bounce.imap.folder", "INBOX", "Folder where bounces arrive.");
        key("bounce.imap.processed-folder", "", "Move processed messages here; empty: flag them in place.");
        key("bounce.interval", "5m", "How often the bounce task reads the mailbox.");
        key("bounce.return-path-domain", "", "Domain for signed return paths (bounces+TOKEN@domain); empty: use the From address.");
        key("bounce.soft-limit", "3", "Suppress an address after this many soft bounces.");
        key("bounce.pause-rate", "0.05", "Pause a campaign whose hard-bounce rate exceeds this…");
        key("bounce.min-sample", "100", "…once it has at least this many sends.");
        // DKIM
        key("dkim.domain", "", "Signing domain (d=); empty: no DKIM signing.");
        key("dkim.selector", "", "Selector (s=); the public key lives at <selector>._domainkey.<domain>.");
        key("dkim.private-key-file", "", "RSA private key, PKCS#8 PEM or DER.");
        // import hygiene
        key("import.reject-disposable", "false", "Reject addresses at known disposable-mail domains.");
        key("import.reject-role", "false", "Reject role addresses (postmaster@, abuse@, noreply@ …).");
        key("import.disposable-list", "", "Extra disposable domains file, one per line, added to the bundled list.");
        key("import.max-field-bytes", "65536", "Largest value of one CSV field (UTF-8 bytes, 1024-4194304); a larger one rejects its row.");
        key("import.max-row-bytes", "262144", "Largest CSV row, all fields together (UTF-8 bytes, 1024-4194304, at least import.max-field-bytes).");
        // logging
        key("log.format", "text", "text | json (one JSON object per line).");
        key("log.level", "info", "trace | debug | info | warn | error.");
    }

    private ConfigKeys() {}

    private static void key(String name, String def, String description) {
        KEYS.put(name, new ConfigKey(name, def, false, description));
    }

    private static void secret(String name, String def, String description) {
        KEYS.put(name, new ConfigKey(name, def, true, description));
    }

    public static Optional<ConfigKey> find(String name) {
        return Optional.ofNullable(KEYS.get(name));
    }

    public static List<ConfigKey> all() {
        return List.copyOf(KEYS.values());
    }
}
