package dev.mailrun.mail.bounce;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Per-recipient facts from the body of an RFC 3464 message/delivery-status part. */
final class DeliveryStatusReports {

    private DeliveryStatusReports() {}

    /**
     * One report per recipient that failed or was delayed; recipients delivered, relayed or expanded
     * are not bounces and are left out.
     */
    static List<BounceReport> read(String deliveryStatus, Optional<String> originalMessageId, Optional<String> token) {
        List<Map<String, String>> blocks = HeaderBlocks.parse(deliveryStatus);
        List<BounceReport> reports = new ArrayList<>();
        for (Map<String, String> block : blocks) {
            if (!block.containsKey("final-recipient") && !block.containsKey("original-recipient")) {
                continue; // the per-message block
            }
            String action = block.getOrDefault("action", "").toLowerCase(Locale.ROOT);
            String status = statusCode(block.getOrDefault("status", ""));
            String diagnosticCode = block.getOrDefault("diagnostic-code", "");
            Optional<BounceKind> kind = kind(action, status, diagnosticCode);
            if (kind.isEmpty()) {
                continue;
            }
            // The original recipient is the address we sent to; the final one may be a forwarding target.
            String recipient = HeaderBlocks.address(block.getOrDefault("original-recipient", block.get("final-recipient")));
            String diagnostic = HeaderBlocks.diagnostic(block.getOrDefault("diagnostic-code", ""));
            reports.add(new BounceReport(kind.get(), Optional.of(recipient).filter(r -> !r.isEmpty()),
                    status.isEmpty() ? (kind.get() == BounceKind.SOFT ? "4.0.0" : "5.0.0") : status,
                    TextPatterns.smtpCode(diagnostic), diagnostic, originalMessageId, token));
        }
        return reports;
    }

    private static Optional<BounceKind> kind(String action, String status, String diagnostic) {
        if (status.startsWith("5")) {
            return Optional.of(PermanentFailures.kind(status, diagnostic));
        }
        if (status.startsWith("4")) {
            return Optional.of(BounceKind.SOFT);
        }
        if (status.startsWith("2")) {
            return Optional.empty();
        }
        return switch (action) {
            case "failed" -> Optional.of(PermanentFailures.kind("", diagnostic));
            case "delayed" -> Optional.of(BounceKind.SOFT);
            default -> Optional.empty();
        };
    }

    /** "5.1.1 (user unknown)" becomes "5.1.1"; anything not shaped like a status code becomes "". */
    private static String statusCode(String value) {
        return TextPatterns.enhancedStatus(value).orElse("");
    }
}
