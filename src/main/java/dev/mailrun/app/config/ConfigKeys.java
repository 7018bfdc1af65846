// One piece on purpose (over 400 lines): every key is one line of one table, in the order the
// generated reference lists them; the class comment says more.
package dev.mailrun.app.config;

import dev.mailrun.campaign.model.DomainGroup;
import dev.mailrun.campaign.model.DomainGroups;
import dev.mailrun.campaign.send.policy.DailyCap;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.smtp.TlsMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every key mailrun understands, each with its one description, in sections. {@link ConfigReference}
 * renders docs/CONFIGURATION.md's key reference and {@code mailrun.properties.example} from them (a
 * test fails when either committed file differs). It is one piece on purpose: a key is one line of
 * this table, and the table's order is the reference's order, which split files would scatter.
 */
public final class ConfigKeys {

    private static final Map<String, ConfigKey> KEYS = new LinkedHashMap<>();
    /** The sections of the reference and the example, in order; each key belongs to the last one opened. */
    private static final List<ConfigSection> SECTIONS = new ArrayList<>();

    /** Keys of a domain group: {@code policy.domain.<name>.domains} and {@code policy.domain.<name>.rate}. */
    static final String GROUP_PREFIX = "policy.domain.";
    private static final Pattern GROUP_KEY = Pattern.compile("policy\\.domain\\.([a-z0-9][a-z0-9-]{0,39})\\.(domains|rate)");
    private static final Range GROUP_RATE = Range.perTime(0.01, 100_000);

    /**
     * The lowest non-zero message rate, for smtp.rate and campaign create --rate: one message every
     * 100 s. Far lower rates cannot send even one message within a run (a tick interval is at most
     * a day), and the limiter's spacing of 1/rate overflows on the way to 0.
     */
    public static final double MIN_RATE = 0.01;

    private static final Duration SECOND = Duration.ofSeconds(1);
    private static final Duration HOUR = Duration.ofHours(1);
    /** Longest interval or delay: slots, retries and the bounce mailbox all run at least daily. */
    private static final Duration DAY = Duration.ofDays(1);
    private static final Range PORT = Range.whole(1, 65_535);
    /** RFC 5321 (4.5.3.2) lets a server take up to 10 minutes for its reply to the end of a message. */
    private static final Range SMTP_TIMEOUT = span(Duration.ofMillis(100), Duration.ofMinutes(10));
    private static final Range WEIGHT = Range.whole(0, RelayRoute.MAX_WEIGHT);
    /** The per-relay keys, {@code smtp.<name>.host} and so on: their names with {@code <name>} in them. */
    private static final Map<String, ConfigKey> RELAY_KEYS = new LinkedHashMap<>();
    private static final Pattern RELAY_KEY = Pattern.compile("smtp\\.([^.]+)\\.([a-z-]+)");
    /** How a per-relay, per-endpoint or own domain group's key is written in {@link #all()} and the docs. */
    static final String RELAY_PLACEHOLDER = "<name>";
    /** The per-endpoint keys of events, {@code events.<name>.url} and so on. */
    private static final Map<String, ConfigKey> ENDPOINT_KEYS = new LinkedHashMap<>();
    private static final Pattern ENDPOINT_KEY = Pattern.compile("events\\.([^.]+)\\.([a-z-]+)");
    /** The keys of an operator's own domain group, {@code policy.domain.<name>.domains} and {@code .rate}. */
    private static final Map<String, ConfigKey> GROUP_KEYS = new LinkedHashMap<>();

    static {
        section("Database", "");
        key("db.url", "", "JDBC URL: jdbc:mysql://host:3306/mailrun, or the driver's jdbc:mysql:replication://, jdbc:mysql:loadbalance:// and jdbc:mysql+srv:// forms. Empty: an embedded MariaDB under db.embedded.dir. A password in it (user:password@host, password=, pwd=) is shown as *** wherever the URL is printed. MySQL 8.4 users (caching_sha2_password) need TLS (the driver's default when the server offers it) or, with sslMode=DISABLED on a trusted network only, allowPublicKeyRetrieval=true.");
        key("db.user", "root", "Database user.");
        secret("db.password", "", "Database password.");
        key("db.pool-size", "10", Range.whole(2, 500), "Maximum connections in the pool.");
        key("db.embedded.dir", "data/mariadb", "Where the embedded MariaDB keeps its files when db.url is empty.");
        section("Scheduler", "The worker ticks at start and then on slots aligned to tick.interval; each run is timeboxed to end before the next slot (docs/SCHEDULER.md, docs/TIMEBOX.md).");
        key("tick.interval", "5m", span(SECOND, DAY), "How often the worker fires a tick (e.g. 30s, 5m, PT5M). It must leave a run at least 2s before its deadline: tick.interval minus tick.safety-margin (at most half the interval) of 2s or more, so 3s with a 1s margin, 4s whatever the margin.");
        key("tick.safety-margin", "15s", span(Duration.ZERO, HOUR), "The most a run's deadline falls before the next slot; the margin used is derived from measured tick lateness and release times, never above this; below tick.interval.");
        key("tick.overlap-wait", "5s", span(Duration.ZERO, Duration.ofMinutes(1)), "At a slot, how long a tick waits for the previous run to release the task before skipping the slot (skipped_overlap).");
        key("tick.shutdown-grace", "30s", span(SECOND, HOUR), "On SIGTERM/SIGINT, how long the running task gets to checkpoint and stop.");
        key("tick.lease", "30s", span(Duration.ofSeconds(3), Duration.ofMinutes(10)), "How long a run holds its task without a heartbeat: a killed worker's campaign is taken over by the first tick after this has passed since its last heartbeat. A run stalled longer (a pause, a database outage) loses its task: it claims and sends nothing more, and records only the outcomes of the messages it sent, on the rows its successor left unknown in its name.");
        key("tick.heartbeat", "5s", span(SECOND, Duration.ofSeconds(20)), "How often a running task extends its lease; below a third of tick.lease. Readiness takes a worker whose heartbeat is over 60s old for stuck.");
        key("tick.run-history", "30d", Range.span(Duration.ofHours(2), Duration.ofDays(3650), true), "How long the run history (task_run) is kept; 0s keeps it forever.");
        section("SMTP relay", "The relay named default: the only one unless smtp.relays names others. Its timeouts hold for every relay (docs/MAIL.md).");
        key("smtp.host", "localhost", "SMTP relay host.");
        key("smtp.port", "25", PORT, "SMTP relay port.");
        key("smtp.tls", "starttls-optional", "none | starttls-optional | starttls-required | implicit.");
        key("smtp.username", "", "SMTP AUTH user; empty: no AUTH.");
        secret("smtp.password", "", "SMTP AUTH password.");
        key("smtp.connections", "4", Range.whole(1, SmtpSettings.MAX_CONNECTIONS), "SMTP connections a run starts with, each reused for many messages; the pool then sizes itself to the rate (smtp.max-connections; docs/MAIL.md, \"Connections\").");
        key("smtp.max-connections", String.valueOf(SmtpSettings.DEFAULT_MAX_CONNECTIONS), Range.whole(1, SmtpSettings.MAX_MAX_CONNECTIONS), "The most SMTP connections one worker opens to this relay when the measured time per message says fewer cannot reach smtp.rate; at least smtp.connections. A relay refusing a connection as one too many lowers it for every worker for 30 minutes.");
        key("smtp.chunking", "false", "true: send with BDAT when the relay offers CHUNKING (one round trip less per message against a relay without PIPELINING; with it both take two). Off by default: Angus Mail 2.0.5 dot-stuffs BDAT content, so a body line starting with \".\" would arrive with two.");
        key("smtp.rate", "10", Range.decimal(MIN_RATE, SmtpSettings.MAX_RATE, true), "Messages per second to this relay, in total across all workers; 0: no limit. A ceiling for every second at the relay, with 5 ms of headroom: the average comes out 0.5% below it (docs/MAIL.md, \"Rate limiting\").");
        key("smtp.connect-timeout", "10s", SMTP_TIMEOUT, "SMTP connect timeout (always also bounded by the run's remaining time).");
        key("smtp.read-timeout", "30s", SMTP_TIMEOUT, "SMTP read timeout.");
        key("smtp.write-timeout", "30s", SMTP_TIMEOUT, "SMTP write timeout: a write to the relay blocked longer fails the message as transient (checked every 20 ms).");
        key("smtp.helo-name", "localhost", "Name sent in EHLO/HELO; set it to this host's public name.");
        key("smtp.keep-warm", "20s", span(Duration.ZERO, Duration.ofMinutes(10)), "How long a worker keeps a run's open SMTP connections for its next run to the same relay (the same settings) to take over, instead of connecting again; those nobody took by then are closed. Longer than tick.safety-margin, so that the next slot's run finds them; 0: off (docs/MAIL.md, \"Connections\").");
        section("Several relays", "The relays smtp.relays names and the default route through them (docs/RELAYS.md).");
        key("smtp.relays", "", "Named relays, comma-separated, in the order of the default route (docs/RELAYS.md); default names the relay of the smtp.* keys above; empty: that one alone.");
        key("smtp.weight", "0", WEIGHT, "Weight of the relay default in the default route; 0: only in place of a relay that is down (all 0: the first relay of smtp.relays takes everything).");
        section("Each relay's own keys", "Each relay named in smtp.relays but default has these keys, <name> replaced by its name (smtp.backup.host, variable MAILRUN_SMTP_BACKUP_HOST); a key of a relay that smtp.relays does not name is an unknown key.");
        template("host", "", "SMTP host of relay <name> (required), for each name in smtp.relays but default.");
        template("port", "25", PORT, "SMTP port of relay <name>.");
        template("tls", "starttls-optional", "none | starttls-optional | starttls-required | implicit, for relay <name>.");
        template("username", "", "SMTP AUTH user of relay <name>; empty: no AUTH.");
        secretTemplate("password", "", "SMTP AUTH password of relay <name>.");
        template("connections", "4", Range.whole(1, SmtpSettings.MAX_CONNECTIONS), "SMTP connections a run starts with to relay <name>.");
        template("max-connections", String.valueOf(SmtpSettings.DEFAULT_MAX_CONNECTIONS), Range.whole(1, SmtpSettings.MAX_MAX_CONNECTIONS), "The most SMTP connections one worker opens to relay <name>, as smtp.max-connections.");
        template("chunking", "false", "BDAT to relay <name> when it offers CHUNKING, as smtp.chunking.");
        template("rate", "10", Range.decimal(MIN_RATE, SmtpSettings.MAX_RATE, true), "Messages per second to relay <name>, in total across all workers; 0: no limit.");
        template("helo-name", "", "Name sent in EHLO/HELO to relay <name>; empty: smtp.helo-name.");
        template("weight", "0", WEIGHT, "Weight of relay <name> in the default route, as smtp.weight.");
        section("Sending", "Batches, retries and the failure breaker of the sending task, and where templates live (docs/MAIL.md).");
        key("send.batch-max", "500", Range.whole(1, 10_000), "Largest batch a run claims at once.");
        key("send.max-attempts", "5", Range.whole(1, 100), "Attempts per recipient before a transient failure becomes failed.");
        key("send.retry-base", "5m", span(SECOND, DAY), "First retry delay; doubles per attempt, with jitter, up to 1d.");
        key("send.pause-on-failure-rate", "0.10", Range.decimal(0.001, 1, false), "Pause a campaign when this fraction of recent attempts failed.");
        key("send.failure-window", "200", Range.whole(1, 100_000), "How many recent attempts the failure rate looks at.");
        key("templates.dir", "templates", "Directory holding one folder per template.");
        section("Domain groups", "Recipient domains paced together, each group at its rate in total across every worker (docs/POLICY.md, \"Sending policy\"). The shipped groups have no cap until a rate is set; setting a shipped group's .domains replaces its list, setting it empty removes the group.");
        for (DomainGroup g : DomainGroups.DEFAULTS.groups()) {
            key(GROUP_PREFIX + g.name() + ".domains", String.join(",", g.domains()),
                    "Recipient domains paced together as the " + g.name() + " group (comma-separated).");
            key(GROUP_PREFIX + g.name() + ".rate", "", GROUP_RATE,
                    "Messages to the " + g.name() + " group in total across all workers, per second, minute or hour (5/s, 300/min, 1000/h); empty: no cap.");
        }
        section("Your own domain groups", "Any other name adds a group (1–40 lower-case letters, digits or '-'), read from the properties file only; the shipped groups' keys are read from the environment too (MAILRUN_POLICY_DOMAIN_GMAIL_RATE).");
        groupKey("domains", "Recipient domains of group <name>, comma-separated; a domain belongs to at most one group.");
        groupKey("rate", "Messages to group <name> in total across all workers, as for a shipped group; requires policy.domain.<name>.domains.");
        section("Daily cap and warm-up", "Per relay, counted in the database across every worker, campaign and restart (docs/POLICY.md).");
        key("policy.daily-cap", "", Range.whole(1, (int) DailyCap.MAX_VOLUME), "Messages per relay and calendar day (policy.day-zone), in total across all workers and campaigns; empty: no cap.");
        key("policy.warmup", "", "Warm-up: daily volumes from policy.warmup-start on, comma-separated (500,1000,2000), each 1–1000000000 and never above policy.daily-cap; after the list, policy.warmup-growth or else policy.daily-cap alone. Empty: no warm-up.");
        key("policy.warmup-growth", "", Range.decimal(1, 10, false), "After the policy.warmup list, each day may send this many times the day before (1.5: +50% a day); empty: the warm-up ends with the list.");
        key("policy.warmup-start", "", "Day 1 of the warm-up, a date in policy.day-zone (2026-12-01); required with policy.warmup. Days before it send day 1's volume.");
        key("policy.day-zone", "UTC", "Time zone whose calendar days the daily cap and warm-up count (Europe/Berlin, America/New_York, UTC).");
        section("Unsubscribe", "Every message carries a one-click unsubscribe link (RFC 8058): campaign start refuses a campaign while unsubscribe.secret or unsubscribe.base-url is not set (docs/DELIVERABILITY.md).");
        secret("unsubscribe.secret", "", "HMAC key for unsubscribe tokens (at least 32 characters).");
        key("unsubscribe.base-url", "", "Public https URL of the unsubscribe endpoint: https://mail.example.com and https://mail.example.com/u give the same links (…/u/TOKEN); a proxy path is kept (https://example.com/mail → …/mail/u/TOKEN).");
        key("unsubscribe.mailto", "", "Address of the List-Unsubscribe mailto; empty: unsubscribe@<the campaign's From domain>. Mail sent there must reach the bounce mailbox, which applies it; without bounce.imap.host no mailto is sent (and setting this key is an error).");
        section("Public HTTP endpoint", "Unsubscribe links, the providers' webhooks and tracked links, served by worker and serve (docs/HTTP.md).");
        key("http.port", "", PORT, "Port of the public endpoint (unsubscribe, provider webhooks) started by worker (and serve); empty: worker starts none.");
        key("http.bind", "127.0.0.1", "Address the public endpoint listens on; put an https proxy in front of it.");
        section("Admin listener", "Metrics, health probes, the status page, the HTTP API and the console, served by worker and serve (docs/METRICS.md).");
        key("admin.port", "", PORT, "Port of the admin listener (/metrics, /health/live, /health/ready, /status, /status.json) started by worker and serve; empty: none. Never the public http.port.");
        key("admin.bind", "127.0.0.1", "Address the admin listener listens on; keep it on a private network.");
        secret("admin.token", "", "Bearer token every admin request must carry (Authorization: Bearer TOKEN), at least 16 visible ASCII characters; empty: none.");
        section("HTTP API", "Under /api/v1 on the admin listener (docs/HTTP.md, docs/api/README.md).");
        key("api.rate", "20", Range.decimal(0.1, 10_000, false), "Requests per second each API token may make on average; over it: 429 with Retry-After.");
        key("api.burst", "40", Range.whole(1, 100_000), "Requests an API token may make at once after a quiet spell.");
        key("api.max-body-bytes", "16777216", Range.whole(1024, 268_435_456), "Largest JSON request body of the API, in bytes; larger: 413.");
        key("api.max-upload-bytes", "1073741824", Range.whole(1024, Integer.MAX_VALUE), "Largest CSV upload of the API (recipients, suppressions), in bytes; streamed to a temporary file, never held in memory; larger: 413.");
        section("Operator console", "Under /console on the admin listener (docs/CONSOLE.md).");
        key("console.trusted-proxies", "", "Comma-separated networks (CIDR, e.g. 10.0.0.0/8, 2001:db8::/32) of the reverse proxies in front of the admin listener: only from a peer in them are X-Forwarded-Proto (https: the console's cookies are Secure) and console.auth-header believed; empty: none is.");
        key("console.auth-header", "", "Header in which an authenticating reverse proxy names its user (e.g. X-Forwarded-User): from a peer in console.trusted-proxies (then required) it logs the user in as proxy:<user> with the scopes of console.proxy-token, at most 128 printable ASCII characters; empty: the console's login asks for an API token.");
        key("console.proxy-token", "", "Name of the API token (api-token list) whose scopes users logged in by console.auth-header get, looked up at each login (revoked or missing: the login is refused); required with console.auth-header.");
        section("Bounces", "The bounce mailbox, read by a scheduled task, and the rates above which a campaign pauses itself (docs/DELIVERABILITY.md).");
        key("bounce.imap.host", "", "IMAP server of the bounce mailbox, which also receives unsubscribe requests sent by mail; empty: no bounce processing and no mailto unsubscribe.");
        key("bounce.imap.port", "993", PORT, "IMAP port.");
        key("bounce.imap.tls", "true", "true: IMAP over TLS (imaps); false: plain IMAP (local servers only).");
        key("bounce.imap.user", "", "IMAP user.");
        secret("bounce.imap.password", "", "IMAP password.");
        key("bounce.imap.folder", "INBOX", "Folder where bounces arrive.");
        key("bounce.imap.processed-folder", "", "Move processed messages here; empty: flag them in place.");
        key("bounce.interval", "5m", span(Duration.ofSeconds(10), DAY), "How often the bounce task reads the mailbox.");
        key("bounce.return-path-domain", "", "Domain for signed return paths (bounces+TOKEN@domain); empty: use the From address.");
        key("bounce.soft-limit", "3", Range.whole(1, 1000), "Suppress an address after this many soft bounces.");
        key("bounce.pause-rate", "0.05", Range.decimal(0.0001, 1, false), "Pause a campaign whose hard-bounce rate exceeds this…");
        key("bounce.min-sample", "100", Range.whole(1, 10_000_000), "…once it has at least this many sends.");
        key("bounce.complaint-pause-rate", "0.003", Range.decimal(0.0001, 1, false), "Pause a campaign whose complaint rate exceeds this, once it has bounce.min-sample sends.");
        section("Replies", "People's answers to the campaigns' messages, counted per recipient by a scheduled task (docs/MAIL.md, \"Replies\").");
        key("replies.imap.host", "", "IMAP server of the replies mailbox, where the campaigns' From or Reply-To address is delivered: people's replies are counted per recipient (--pick-by replies); empty: no reply is counted.");
        key("replies.imap.port", "993", PORT, "IMAP port.");
        key("replies.imap.tls", "true", "true: IMAP over TLS (imaps); false: plain IMAP (local servers only).");
        key("replies.imap.user", "", "IMAP user.");
        secret("replies.imap.password", "", "IMAP password.");
        key("replies.imap.folder", "INBOX", "Folder where replies arrive; not the bounce mailbox's folder.");
        key("replies.imap.processed-folder", "", "Move processed messages here; empty: flag them in place (left unread either way).");
        key("replies.interval", "5m", span(Duration.ofSeconds(10), DAY), "How often the replies task reads the mailbox.");
        section("Feedback from email providers", "Webhooks on the public endpoint (http.port), each provider off until its keys are set (docs/DELIVERABILITY.md).");
        key("feedback.ses.enabled", "false", "true: take Amazon SES notifications from SNS at /feedback/ses and tag every message for SES (docs/providers/ses.md).");
        key("feedback.ses.topic-arns", "", "Comma-separated SNS topic ARNs whose messages are taken; empty: any topic whose signature verifies.");
        key("feedback.ses.auto-confirm", "false", "true: confirm an SNS subscription by fetching its SubscribeURL (SNS hosts only); false: the URL is logged.");
        key("feedback.ses.configuration-set", "", "SES configuration set named in every message (X-SES-CONFIGURATION-SET); empty: the identity's default.");
        secret("feedback.postmark.user", "", "Basic-auth user in the Postmark webhook URL; set with the password to take /feedback/postmark (docs/providers/postmark.md).");
        secret("feedback.postmark.password", "", "Basic-auth password in the Postmark webhook URL (at least 16 characters).");
        key("feedback.sendgrid.public-key", "", "Verification key of SendGrid's Signed Event Webhook (base64); set to take /feedback/sendgrid (docs/providers/sendgrid.md).");
        secret("feedback.mailgun.signing-key", "", "Mailgun HTTP webhook signing key; set to take /feedback/mailgun (docs/providers/mailgun.md).");
        section("DKIM", "Signing every message (docs/DELIVERABILITY.md).");
        key("dkim.domain", "", "Signing domain (d=); empty: no DKIM signing.");
        key("dkim.selector", "", "Selector (s=); the public key lives at <selector>._domainkey.<domain>.");
        key("dkim.private-key-file", "", "RSA private key, PKCS#8 PEM or DER.");
        section("Import", "Address hygiene and size limits of a recipient import (docs/CAMPAIGNS.md).");
        key("import.reject-disposable", "false", "Reject addresses at known disposable-mail domains.");
        key("import.reject-role", "false", "Reject role addresses (postmaster@, abuse@, noreply@ …).");
        key("import.disposable-list", "", "Extra disposable domains file, one per line, added to the bundled list.");
        key("import.max-field-bytes", "65536", Range.whole(1024, 4_194_304), "Largest value of one CSV field, in UTF-8 bytes; a larger one rejects its row.");
        key("import.max-row-bytes", "262144", Range.whole(1024, 4_194_304), "Largest CSV row, all fields together, in UTF-8 bytes; at least import.max-field-bytes.");
        section("Content", "What messages carry (docs/MAIL.md, \"Attachments\") and the stored templates (docs/CONTENT.md).");
        key("content.max-attachment-bytes", "10485760", Range.whole(1024, 104_857_600), "Largest file campaign create --attach takes, in bytes (10 MiB); a larger one is refused at create. At most content.max-message-bytes, and below the database server's max_allowed_packet.");
        key("content.max-message-bytes", "20971520", Range.whole(1024, 209_715_200), "Largest size of a campaign's attached files together, in bytes (20 MiB); more is refused at create, and a recipient's own file that would take its message over it is rejected at import.");
        key("content.max-template-bytes", "1048576", Range.whole(1024, 16_777_216), "Largest template a save stores, its subject, text, HTML and properties together in UTF-8 bytes (1 MiB); a larger one is refused and nothing is stored (docs/CONTENT.md).");
        key("content.recipient-files", "", "Directory holding the recipients' own files, named by an import's attachment column relative to it (docs/MAIL.md, \"Attachments\"); empty: an import with such a column is refused.");
        section("Engagement tracking", "Off unless tracking.enabled, and then only for campaigns created with --track (docs/TRACKING.md).");
        key("tracking.enabled", "false", "true: campaigns created with --track get their links rewritten and an open image (docs/TRACKING.md), served on the public listener (needs http.port); false: no campaign is tracked and messages are exactly as without tracking.");
        key("tracking.base-url", "", "Public https base of the tracking endpoints (<base>/c/TOKEN, <base>/o/TOKEN.gif), served on the public listener; required when tracking.enabled. Never defaulted to the From domain: a separate tracking domain is the operator's choice.");
        key("tracking.retention", "180d", span(Duration.ofDays(1), Duration.ofDays(3650)), "How long opens and clicks are kept; older ones are deleted by the process serving the public listener.");
        key("tracking.per-recipient", "true", "true: each open and click names its recipient (unique counts, first/last per recipient in export); false: only per-campaign and per-link counts are stored.");
        key("tracking.exclude-domains", "", "Comma-separated domains whose links (and their subdomains') are never rewritten.");
        key("tracking.scanner-window", "10s", span(Duration.ZERO, HOUR), "A click this soon after delivery is counted as a link scanner's.");
        key("tracking.machines-file", "", "A file of image proxies and link scanners used instead of the shipped list (format: docs/TRACKING.md); empty: the shipped list.");
        key("tracking.trusted-proxies", "", "Comma-separated networks (CIDR, e.g. 10.0.0.0/8, 2001:db8::/32) of the reverse proxies in front of the public listener: only from a peer in them is X-Forwarded-For read for a tracking request's client address (docs/TRACKING.md); empty: the peer's address is the client's.");
        key("tracking.buffer", "10000", Range.whole(100, 1_000_000), "Opens and clicks waiting to be written at most; beyond it they are dropped and counted (mailrun_tracking_dropped_total), never delaying an answer.");
        section("Web version", "The merge field web_url gives each recipient a signed link to the message as sent to them, served on the public listener at <unsubscribe.base-url>/w/TOKEN (docs/CONTENT.md, \"Web version\").");
        key("webversion.ttl", "180d", span(Duration.ofDays(1), Duration.ofDays(3650)), "How long a web version link works after its message was built (the default is tracking.retention's); carried in the signed link, so a change applies to messages built after it. An expired link answers 404.");
        key("webversion.personal", "true", "What the web version pages of a campaign without a setting of its own (campaign create --web-version) show. true: the recipient's own fields (name, address, imported columns) and unsubscribe link, as the message did; false: only the campaign's fields and the template's defaults, without an unsubscribe link. Read when a page is served, so it applies to such campaigns' links already sent; a campaign's own setting wins either way.");
        section("Sign-up forms", "Hosted sign-up forms for public lists on the public listener, /subscribe and /confirm/TOKEN, with double opt-in, checks against bots, and a consent record (docs/SIGNUP.md). Needs http.port, unsubscribe.secret (it signs the forms and links) and unsubscribe.base-url (links are made on it).");
        key("signup.enabled", "false", "true: the public listener serves the sign-up forms of the public lists and their confirmation links.");
        key("signup.from", "", "The sender of confirmation and welcome messages, address or Name <address>; required when signup.enabled.");
        key("signup.language", "en", "The language (en, de) of the pages and confirmation message of a list without its own (lists language NAME LANG).");
        key("signup.confirm-template", "signup-confirm", "The content store's template of the confirmation message; signup-confirm, when neither stored nor in templates.dir, is the one shipped with mailrun.");
        key("signup.welcome-template", "", "The template of a welcome message sent when a subscription is confirmed; empty: none.");
        key("signup.confirm-ttl", "3d", span(Duration.ofMinutes(10), Duration.ofDays(30)), "How long a confirmation link works; carried in the signed link.");
        key("signup.wording-version", "v1", "The version of the form's consent wording, recorded with each consent from a form; raise it when the wording changes.");
        key("signup.store-ip", "false", "true: a form's client address (behind tracking.trusted-proxies) is kept with its consent; false: never stored.");
        key("signup.min-fill-time", "3s", span(Duration.ZERO, Duration.ofMinutes(10)), "A hosted form sent sooner than this after it was shown is taken for a bot's: answered as usual, nothing done.");
        key("signup.form-max-age", "1d", span(Duration.ofMinutes(1), Duration.ofDays(30)), "A hosted form older than this is refused with a page asking to reload it.");
        key("signup.ip-limit", "20", Range.whole(0, 1_000_000), "Sign-ups one client address may send per signup.limit-window (counted in memory, behind tracking.trusted-proxies); more answer 429. 0: no limit.");
        key("signup.address-limit", "3", Range.whole(0, 1_000_000), "Sign-ups of one email address per signup.limit-window; more answer 429 and send nothing. 0: no limit.");
        key("signup.limit-window", "1h", span(Duration.ofSeconds(1), Duration.ofDays(1)), "The window both sign-up rates are counted over.");
        key("signup.proof-of-work", "false", "true: every sign-up carries a solved proof-of-work challenge (ALTCHA's format), which the hosted form's inline script solves in the reader's browser; the form then needs JavaScript. A form of the operator's own site gets its challenge from GET /altcha/challenge.");
        key("signup.proof-of-work-max-number", "100000", Range.whole(1_000, 10_000_000), "The largest number a proof-of-work challenge hides: the browser hashes up to that many numbers, half on average (100000: at most 0.42 s in headless Chromium on a 2-core server; a phone takes a few times longer).");
        key("signup.external-forms", "false", "true: POST /subscribe is taken without the hosted form's token, from a form on the operator's own site (no minimum fill time then); false: only the hosted forms.");
        section("Public pages", "How every page people see on the public listener looks: sign-up, confirmation, the preference centre, one-click unsubscribe.");
        key("pages.logo-url", "", "An https URL of a logo shown above each page; the only thing a page loads from elsewhere. Empty: none.");
        key("pages.accent-colour", "#1d4ed8", "Buttons, links and focus outlines, #rrggbb.");
        key("pages.text-colour", "#111827", "The text, #rrggbb.");
        key("pages.footer", "", "One line of at most 300 characters under every page (an address, a company name); empty: none.");
        section("Events out", "What mailrun learns (sends, bounces, complaints, unsubscribes, campaign changes), signed and delivered at least once by the worker to each endpoint events.endpoints names (docs/EVENTS.md).");
        key("events.endpoints", "", "Endpoints that receive events (docs/EVENTS.md), comma-separated names, each with the events.<name>.* keys below; empty: none, and no event is written (an event is written only when an endpoint's types take it; an endpoint added later gets events from then on, events replay the older ones written for another endpoint).");
        key("events.include-fields", "false", "true: each recipient event carries the recipient's imported fields (data.fields), so a receiver can match its own records.");
        key("events.retention", "30d", span(Duration.ofDays(1), Duration.ofDays(3650)), "How long events stay in the outbox, delivered or not; one expiring before its delivery is counted (mailrun_events_expired_undelivered_total) and logged.");
        key("events.poll", "1s", span(Duration.ofMillis(100), Duration.ofMinutes(1)), "How often the worker's dispatcher looks for new events to deliver.");
        section("Each endpoint's own keys", "Each endpoint named in events.endpoints has these keys, <name> replaced by its name (events.crm.url, variable MAILRUN_EVENTS_CRM_URL); a key of an endpoint that events.endpoints does not name is an error.");
        endpointKey("url", "", false, Optional.empty(), "URL events are POSTed to for endpoint <name> (required), for each name in events.endpoints: https unless events.<name>.allow-http, without user info or fragment; redirects are not followed.");
        endpointKey("secret", "", true, Optional.empty(), "Standard Webhooks signing secret of endpoint <name> (required): whsec_ followed by the base64 of 24–64 random bytes (echo \"whsec_$(openssl rand -base64 32)\").");
        endpointKey("types", "*", false, Optional.empty(), "Event types endpoint <name> takes, comma-separated: types (recipient.bounced), prefixes (recipient.*) or * for all but the optional types, recipient.deferred (each temporary failure) and run.finished (each sending run's summary), which only their own name switches on.");
        endpointKey("batch", "100", false, Optional.of(Range.whole(1, 1000)), "Events per request to endpoint <name>; 1: one event per request, as the body itself.");
        endpointKey("timeout", "10s", false, Optional.of(span(SECOND, Duration.ofMinutes(1))), "How long a request to endpoint <name> may take (connect and answer).");
        endpointKey("disable-after", "3d", false, Optional.of(span(HOUR, Duration.ofDays(30))), "Endpoint <name> failing for this long is disabled (an endpoint.disabled event, a metric, a warning); its events wait for mailrun events enable.");
        endpointKey("allow-http", "false", false, Optional.empty(), "true: endpoint <name> may be a plain http URL.");
        endpointKey("allow-private-addresses", "false", false, Optional.empty(), "true: endpoint <name>'s host may resolve to loopback, link-local, private (IPv6: unique-local too), wildcard or multicast addresses (a receiver on this machine or network); false: a host resolving only to those is refused at start (a configuration error naming events.<name>.url), and each connection to one of them is refused.");
        section("Logging", "Logs go to stderr; stdout carries only command output (docs/OPERATIONS.md).");
        key("log.format", "text", "text | json (one JSON object per line).");
        key("log.level", "info", "trace | debug | info | warn | error.");
    }

    private ConfigKeys() {}

    private static void section(String title, String intro) {
        SECTIONS.add(new ConfigSection(title, intro, new ArrayList<>()));
    }

    private static ConfigKey add(ConfigKey key) {
        KEYS.put(key.name(), key);
        SECTIONS.get(SECTIONS.size() - 1).keys().add(key);
        return key;
    }

    private static void key(String name, String def, String description) {
        add(new ConfigKey(name, def, false, description, Optional.empty()));
    }

    private static void key(String name, String def, Range range, String description) {
        add(new ConfigKey(name, def, false, description, Optional.of(range)));
    }

    private static void secret(String name, String def, String description) {
        add(new ConfigKey(name, def, true, description, Optional.empty()));
    }

    private static void template(String suffix, String def, String description) {
        relayKey(suffix, def, false, description, Optional.empty());
    }

    private static void template(String suffix, String def, Range range, String description) {
        relayKey(suffix, def, false, description, Optional.of(range));
    }

    private static void secretTemplate(String suffix, String def, String description) {
        relayKey(suffix, def, true, description, Optional.empty());
    }

    private static void relayKey(String suffix, String def, boolean secret, String description, Optional<Range> range) {
        RELAY_KEYS.put(suffix, add(new ConfigKey(relayKey(RELAY_PLACEHOLDER, suffix), def, secret, description, range)));
    }

    private static void groupKey(String suffix, String description) {
        Optional<Range> range = suffix.equals("rate") ? Optional.of(GROUP_RATE) : Optional.empty();
        GROUP_KEYS.put(suffix, add(new ConfigKey(GROUP_PREFIX + RELAY_PLACEHOLDER + "." + suffix, "", false, description, range)));
    }

    private static void endpointKey(String suffix, String def, boolean secret, Optional<Range> range, String description) {
        ENDPOINT_KEYS.put(suffix, add(new ConfigKey(endpointKey(RELAY_PLACEHOLDER, suffix), def, secret, description, range)));
    }

    /** {@code events.<endpoint>.<suffix>}. */
    static String endpointKey(String endpoint, String suffix) {
        return "events." + endpoint + "." + suffix;
    }

    /** The suffixes of the per-endpoint keys ({@code url}, {@code secret}, …). */
    static List<String> endpointSuffixes() {
        return List.copyOf(ENDPOINT_KEYS.keySet());
    }

    /** {@code smtp.<relay>.<suffix>}. */
    static String relayKey(String relay, String suffix) {
        return "smtp." + relay + "." + suffix;
    }

    /** The suffixes of the per-relay keys ({@code host}, {@code port}, …). */
    static List<String> relaySuffixes() {
        return List.copyOf(RELAY_KEYS.keySet());
    }

    /**
     * True for a per-relay, per-endpoint or own domain group's key as listed ({@code smtp.<name>.host},
     * {@code events.<name>.url}, {@code policy.domain.<name>.rate}), which no file or variable sets as such.
     */
    static boolean isTemplate(ConfigKey key) {
        return key.name().contains(RELAY_PLACEHOLDER);
    }

    private static Range span(Duration min, Duration max) {
        return Range.span(min, max, false);
    }

    /**
     * Puts a per-relay or per-endpoint key into {@code values}: its default unless the files gave it,
     * then its environment variable, which wins ({@code smtp.backup.host} → {@code MAILRUN_SMTP_BACKUP_HOST}).
     */
    static void defaultThenEnv(Map<String, String> values, Map<String, String> env, String name) {
        ConfigKey key = find(name).orElseThrow();
        values.putIfAbsent(name, key.defaultValue());
        String v = env.get(key.envName());
        if (v != null) {
            values.put(name, v);
        }
    }

    /**
     * A yes-or-no key: every such key has {@code true} or {@code false} as its default, and no other
     * key has (the key reference shows each default).
     */
    static boolean isFlag(ConfigKey key) {
        return key.defaultValue().equals("true") || key.defaultValue().equals("false");
    }

    /** The named values a key takes ({@code smtp.tls}, {@code smtp.<name>.tls}, {@code log.*}); empty for any other key. */
    static Optional<Class<? extends Enum<?>>> choiceOf(String name) {
        Matcher relay = RELAY_KEY.matcher(name);
        String generic = relay.matches() && RELAY_KEYS.containsKey(relay.group(2)) ? "smtp." + relay.group(2) : name;
        return Optional.ofNullable(CHOICES.get(generic));
    }

    private static final Map<String, Class<? extends Enum<?>>> CHOICES = Map.of(
            "smtp.tls", TlsMode.class, "log.format", LogConfig.Format.class, "log.level", LogConfig.Level.class);

    /**
     * The key named {@code name}: one of {@link #all()}, or a per-relay, per-endpoint or own domain
     * group's key ({@code smtp.backup.host}), which takes its default, range, secrecy and description
     * from its template.
     */
    public static Optional<ConfigKey> find(String name) {
        ConfigKey known = KEYS.get(name);
        if (known != null) {
            return Optional.of(known);
        }
        Matcher relay = RELAY_KEY.matcher(name);
        if (relay.matches() && RELAY_KEYS.containsKey(relay.group(2))) {
            ConfigKey t = RELAY_KEYS.get(relay.group(2));
            return Optional.of(new ConfigKey(name, t.defaultValue(), t.secret(), t.description(), t.range()));
        }
        Matcher endpoint = ENDPOINT_KEY.matcher(name);
        if (endpoint.matches() && ENDPOINT_KEYS.containsKey(endpoint.group(2))) {
            ConfigKey t = ENDPOINT_KEYS.get(endpoint.group(2));
            return Optional.of(new ConfigKey(name, t.defaultValue(), t.secret(), t.description(), t.range()));
        }
        // An operator's own domain group: its keys exist once the file names them.
        Matcher m = GROUP_KEY.matcher(name);
        if (m.matches()) {
            ConfigKey t = GROUP_KEYS.get(m.group(2));
            return Optional.of(new ConfigKey(name, t.defaultValue(), t.secret(), t.description(), t.range()));
        }
        return Optional.empty();
    }

    /** The group a domain-group key belongs to, if {@code name} is one. */
    static Optional<String> groupOf(String name) {
        Matcher m = GROUP_KEY.matcher(name);
        return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
    }

    static List<ConfigKey> all() {
        return List.copyOf(KEYS.values());
    }

    /** Every key by section, in the order of the reference and the example. */
    static List<ConfigSection> sections() {
        return SECTIONS.stream().map(s -> new ConfigSection(s.title(), s.intro(), List.copyOf(s.keys()))).toList();
    }

    /**
     * The environment variable that sets {@code key} ({@code MAILRUN_SMTP_<NAME>_HOST} for a relay's
     * key); none for an own domain group's keys, which only the properties file sets.
     */
    static Optional<String> environmentVariable(ConfigKey key) {
        return GROUP_KEYS.containsValue(key) ? Optional.empty() : Optional.of(key.envName());
    }
}
