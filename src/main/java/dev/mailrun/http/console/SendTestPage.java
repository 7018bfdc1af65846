package dev.mailrun.http.console;

import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.TestSend;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.mail.smtp.SendResult;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code /console/campaigns/<id>/send-test}: one message of the campaign to each of up to
 * {@link #MAX_ADDRESSES} addresses, now — {@link TestSend}, what {@code mailrun send-test} sends: through the
 * first relay of the default route, its subject starting with "[test] ", the header X-Mailrun-Test: 1, and
 * nothing of the campaign changed. Every value is checked before anything is sent: a bad one is named
 * beside its field and nothing is sent. A page of its own, as pausing is: the campaign's page reloads
 * itself while the campaign runs.
 */
final class SendTestPage {

    static final int MAX_ADDRESSES = 10;

    private final ConsoleServices services;
    private final Views views;
    private final Campaigns campaigns;

    SendTestPage(ConsoleServices services, Views views) {
        this.services = services;
        this.views = views;
        this.campaigns = services.api().campaigns();
    }

    Answer show(ConsoleRequest r) throws SQLException {
        try {
            return page(r, 200, campaigns.get(r.id(0)), Map.of(), Map.of());
        } catch (CampaignException e) {
            return Answer.error(404, e.getMessage() + ".");
        }
    }

    Answer send(ConsoleRequest r) throws Exception {
        long id = r.id(0);
        Campaign campaign;
        try {
            campaign = campaigns.get(id);
        } catch (CampaignException e) {
            return Answer.error(404, e.getMessage() + ".");
        }
        Map<String, String> errors = new LinkedHashMap<>();
        List<String> to = addresses(r.field("to").orElse(""), errors);
        Map<String, String> fields = fields(r.field("fields").orElse(""), errors);
        String name = r.field("name").orElse("");
        if (name.length() > 200 || name.chars().anyMatch(Character::isISOControl)) {
            errors.put("name", "one line of at most 200 characters");
        }
        if (!errors.isEmpty()) {
            return page(r, 422, campaign, r.form(), errors);
        }
        TestSend sender;
        try {
            sender = services.content().testSend().get();
        } catch (RuntimeException e) {
            // What the settings lack to send at all (such as unsubscribe.secret): as send-test says it.
            throw new Refusal("/campaigns/" + id + "/send-test", "No test can be sent: " + e.getMessage());
        }
        List<String> sent = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (String address : to) {
            SendResult result;
            try {
                result = sender.send(campaign, address, name, fields);
            } catch (CampaignException e) {
                throw new Refusal("/campaigns/" + id + "/send-test", "No test was sent: " + e.getMessage() + ".");
            }
            if (result instanceof SendResult.Sent s) {
                sent.add(address + " (Message-ID " + s.messageId() + ")");
            } else {
                failed.add(address + ": " + why(result));
            }
        }
        String text = (sent.isEmpty() ? "" : "Test sent to " + String.join(", ", sent) + ".")
                + (failed.isEmpty() ? "" : (sent.isEmpty() ? "" : " ") + "Not sent to " + String.join("; ", failed) + ".");
        r.session().flash(!failed.isEmpty(), text);
        return Answer.redirect(ConsoleHandler.PREFIX + "/campaigns/" + id);
    }

    /** The addresses, comma- or line-separated: one to {@link #MAX_ADDRESSES}, each valid, or why not. */
    static List<String> addresses(String given, Map<String, String> errors) {
        List<String> all = Arrays.stream(given.split("[,;\\s]+")).filter(a -> !a.isEmpty()).distinct().toList();
        if (all.isEmpty()) {
            errors.put("to", "give at least one address");
        } else if (all.size() > MAX_ADDRESSES) {
            errors.put("to", "at most " + MAX_ADDRESSES + " addresses, got " + all.size());
        } else {
            List<String> bad = new ArrayList<>();
            for (String a : all) {
                if (EmailAddress.check(a) instanceof EmailAddress.Invalid invalid) {
                    bad.add(a + ": " + invalid.reason());
                }
            }
            if (!bad.isEmpty()) {
                errors.put("to", String.join("; ", bad));
            }
        }
        return all;
    }

    /** The merge fields, one {@code column=value} a line, or the first line that is not one. */
    private static Map<String, String> fields(String given, Map<String, String> errors) {
        Map<String, String> fields = new LinkedHashMap<>();
        String[] lines = given.split("\\R");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty()) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                errors.put("fields", "line " + (i + 1) + " is not column=value: " + line);
                break;
            }
            fields.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
        }
        return fields;
    }

    /** A result other than sent, in the relay's words. */
    private static String why(SendResult result) {
        if (result instanceof SendResult.Permanent p) {
            return p.code() + " " + p.text();
        }
        if (result instanceof SendResult.Transient t) {
            return (t.code() == 0 ? "" : t.code() + " ") + t.text();
        }
        if (result instanceof SendResult.Throttled t) {
            return t.code() + " " + t.text();
        }
        if (result instanceof SendResult.Fatal f) {
            return f.reason();
        }
        if (result instanceof SendResult.Unreachable u) {
            return "the relay could not be reached: " + u.text();
        }
        return "not attempted";
    }

    private Answer page(ConsoleRequest r, int status, Campaign c, Map<String, String> values, Map<String, String> errors) {
        Map<String, String> filled = new HashMap<>(values);
        for (String field : List.of("to", "name", "fields")) {
            filled.putIfAbsent(field, "");
        }
        Map<String, Object> model = new HashMap<>();
        model.put("c", Map.of("id", c.id(), "name", c.name(), "status", c.status().dbValue(), "template", c.template()));
        model.put("values", filled);
        model.put("errors", errors);
        model.put("max", MAX_ADDRESSES);
        return new Answer.Page(status, views.render("send-test", r.session(), model));
    }
}
