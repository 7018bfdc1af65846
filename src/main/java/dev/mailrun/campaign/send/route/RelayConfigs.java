package dev.mailrun.campaign.send.route;

import dev.mailrun.campaign.store.RelayConfigTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.smtp.SmtpSettings;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * Which settings each worker gives each relay name, and the relays whose workers disagree. A worker
 * records its settings of every configured relay ({@link #RENEW}: at its start and every 30 s); a
 * record renewed within {@link #LIVE} is a worker running now. Two live workers with different
 * settings of one name (one pointing at a dead port) each send their share of the relay's rate their
 * own way, and status, readiness and the metrics name them.
 *
 * <p>The settings are the relay's host, port, TLS mode, user and rate, hashed (SHA-256, hex) and as
 * text; never the password.
 */
public final class RelayConfigs {

    /** How often a worker renews its records. */
    public static final Duration RENEW = Duration.ofSeconds(30);
    /** A record renewed this recently is a live worker's. */
    public static final Duration LIVE = Duration.ofMinutes(2);

    /** A relay whose live workers hold more than one set of settings, each worker with its own. */
    public record Disagreement(String relay, List<RelayConfigTable.Row> workers) {

        /** {@code relay a: workers disagree on its settings — w1: … ; w2: …}, one line. */
        public String line() {
            return "relay " + relay + ": workers disagree on its settings — " + workers.stream()
                    .map(w -> w.worker() + ": " + w.settings()).collect(Collectors.joining("; "));
        }
    }

    private final RelayConfigTable table = new RelayConfigTable();

    /** Records this worker's settings of every relay of {@code relays}, as of {@code now}. */
    public void record(DataSource dataSource, String worker, Relays relays, Instant now) throws SQLException {
        List<RelayConfigTable.Row> rows = relays.byName().values().stream().map(r -> row(worker, r, now)).toList();
        Transactions.inTransaction(dataSource, c -> {
            table.record(c, rows);
            return null;
        });
    }

    /** Every relay whose workers live at {@code now} hold different settings, by relay name. */
    public List<Disagreement> disagreements(Connection c, Instant now) throws SQLException {
        Map<String, List<RelayConfigTable.Row>> byRelay = new LinkedHashMap<>();
        for (RelayConfigTable.Row row : table.seenSince(c, now.minus(LIVE))) {
            byRelay.computeIfAbsent(row.relay(), k -> new ArrayList<>()).add(row);
        }
        List<Disagreement> found = new ArrayList<>();
        byRelay.forEach((relay, rows) -> {
            if (rows.stream().map(RelayConfigTable.Row::fingerprint).distinct().count() > 1) {
                found.add(new Disagreement(relay, rows));
            }
        });
        return found;
    }

    static RelayConfigTable.Row row(String worker, Relay relay, Instant now) {
        String settings = settings(relay);
        return new RelayConfigTable.Row(relay.name(), worker, sha256(settings), settings, now);
    }

    /** {@code smtp.example.com:587 starttls-required, user mailer, 8/s}: what the fingerprint covers, as text. */
    static String settings(Relay relay) {
        SmtpSettings smtp = relay.smtp();
        String rate = relay.rate() == 0 ? "no rate limit"
                : BigDecimal.valueOf(relay.rate()).setScale(2, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString() + "/s";
        return smtp.host().toLowerCase(Locale.ROOT) + ":" + smtp.port() + " " + smtp.tls().name().toLowerCase(Locale.ROOT)
                .replace('_', '-') + ", user " + smtp.username().orElse("(none)") + ", " + rate;
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java platform", e);
        }
    }
}
