package dev.mailrun.http.console;

import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.suppression.SuppressionFileException;
import dev.mailrun.campaign.suppression.SuppressionImportReport;
import dev.mailrun.campaign.suppression.SuppressionList;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /console/suppressions}: look an address up (suppressed or not, why, and its last removal),
 * the newest entries, add one, remove one — only with a reason, which the removal log keeps with who
 * removed it — and import a CSV file as {@code suppression import} does. Changes name their source
 * {@code console:<token name>}.
 */
final class SuppressionsPage {

    private static final int NEWEST = 50;

    private final ConsoleServices services;
    private final Views views;
    private final SuppressionList list;

    SuppressionsPage(ConsoleServices services, Views views) {
        this.services = services;
        this.views = views;
        this.list = services.api().suppressions();
    }

    Answer show(ConsoleRequest r) throws Exception {
        Map<String, Object> model = new HashMap<>();
        Optional<String> query = r.param("address").map(String::strip);
        model.put("query", query.orElse(""));
        model.put("found", null);
        model.put("queryError", null);
        if (query.isPresent()) {
            if (EmailAddress.check(query.get()) instanceof EmailAddress.Valid valid) {
                SuppressionList.Status status = list.check(valid.address());
                Map<String, Object> found = new HashMap<>();
                found.put("key", status.key());
                found.put("suppression", status.suppression().map(SuppressionsPage::row).orElse(null));
                found.put("lastRemoval", status.lastRemoval().map(rm -> Map.of("why", rm.why(), "removedBy", rm.removedBy(),
                        "removedAt", rm.removedAt().toString())).orElse(null));
                model.put("found", found);
            } else {
                model.put("queryError", "Not an email address: enter one such as reader@example.com.");
            }
        }
        SuppressionList.Listing newest = list.newest(new SuppressionTable.Filter(Optional.empty(), Optional.empty()), NEWEST);
        model.put("newest", newest.rows().stream().map(SuppressionsPage::row).toList());
        model.put("total", newest.total());
        model.put("reasons", Arrays.stream(SuppressionReason.values()).map(SuppressionReason::dbValue).toList());
        return Answer.ok(views.render("suppressions", r.session(), model));
    }

    Answer add(ConsoleRequest r) throws Exception {
        EmailAddress address = address(r);
        SuppressionReason reason = r.field("reason").flatMap(SuppressionReason::fromDb).orElse(SuppressionReason.MANUAL);
        boolean added = list.add(address, reason, source(r));
        r.session().flash(false, address.suppressionKey() + (added ? " is suppressed (" + reason.dbValue() + ")." : " was already suppressed."));
        return back(address);
    }

    Answer remove(ConsoleRequest r) throws Exception {
        EmailAddress address = address(r);
        Optional<String> why = r.field("why");
        Optional<SuppressionTable.Stored> removed;
        try {
            removed = list.remove(address, why.orElse(""), source(r));
        } catch (InvalidFields e) {
            // The domain's reason completes the sentence: "it must say why …", "it is longer than 1000 characters".
            throw new Refusal(lookup(address), "Removing needs a reason, kept with your name: it " + e.problems().get(0).reason() + ".");
        }
        if (removed.isEmpty()) {
            throw new Refusal(lookup(address), address.suppressionKey() + " is not on the suppression list.");
        }
        r.session().flash(false, address.suppressionKey() + " is no longer suppressed; the removal and its reason are logged.");
        return back(address);
    }

    Answer importCsv(ConsoleRequest r) throws Exception {
        if (r.upload().isEmpty()) {
            throw new Refusal("/suppressions", "Choose a CSV file to import (a header line with an email or address column).");
        }
        SuppressionReason reason = r.field("reason").flatMap(SuppressionReason::fromDb).orElse(SuppressionReason.IMPORTED);
        SuppressionImportReport report;
        try {
            report = services.api().suppressionImporter().importCsv(r.upload().get(), reason, Optional.empty(), n -> { });
        } catch (SuppressionFileException e) {
            // The importer read the server's temporary copy: its reason without that file's path.
            throw new Refusal("/suppressions", "The file was not imported: " + e.reason());
        } catch (IllegalArgumentException e) {
            throw new Refusal("/suppressions", "The file was not imported: " + e.getMessage());
        }
        r.session().flash(report.rejected() > 0, report.rows() + " row(s) read: " + report.suppressed() + " suppressed, "
                + report.alreadySuppressed() + " already suppressed, " + report.rejected() + " rejected"
                + (report.firstRejects().isEmpty() ? "." : " (first: line " + report.firstRejects().get(0).line() + ", "
                + report.firstRejects().get(0).reason().label() + ")."));
        return Answer.redirect(ConsoleHandler.PREFIX + "/suppressions");
    }

    private static EmailAddress address(ConsoleRequest r) throws Refusal {
        String text = r.field("address").orElse("");
        if (text.length() <= EmailAddress.MAX_ADDRESS_OCTETS && EmailAddress.check(text) instanceof EmailAddress.Valid valid) {
            return valid.address();
        }
        throw new Refusal("/suppressions", "Not an email address: enter one such as reader@example.com.");
    }

    private static String source(ConsoleRequest r) {
        return "console:" + r.session().caller().name();
    }

    private static String lookup(EmailAddress address) {
        return "/suppressions?address=" + URLEncoder.encode(address.suppressionKey(), StandardCharsets.UTF_8);
    }

    private static Answer back(EmailAddress address) {
        return Answer.redirect(ConsoleHandler.PREFIX + lookup(address));
    }

    private static Map<String, Object> row(SuppressionTable.Stored st) {
        return Map.of("address", st.address(), "reason", st.reason(), "source", st.source(), "createdAt", st.createdAt().toString());
    }
}
