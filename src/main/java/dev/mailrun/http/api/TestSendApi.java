package dev.mailrun.http.api;

import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.TestSend;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.mail.smtp.SendResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@code send-test} to a few addresses: one test message of the campaign to each, as the command sends
 * it (subject {@code [test] …}, {@code X-Mailrun-Test: 1}; the campaign, its recipients and its figures
 * unchanged), and each address's SMTP outcome.
 */
final class TestSendApi {

    /** The most addresses one request sends a test to: a few colleagues' inboxes, not a list. */
    static final int MAX_ADDRESSES = 10;

    /** The addresses, and the recipient name and merge fields every test is rendered with. */
    record SendTestBody(List<String> to, String name, Map<String, String> fields) {}

    private final Campaigns campaigns;
    private final Supplier<TestSend> testSend;

    TestSendApi(ApiServices services) {
        this.campaigns = services.campaigns();
        this.testSend = services.testSend();
    }

    List<Operation> operations() {
        return List.of(Operation.write("POST", "/campaigns/{id}/send-test", ApiScope.CAMPAIGNS_WRITE, Operation.Body.JSON,
                "campaign.send-test", this::send));
    }

    private ApiResponse send(ApiRequest r) throws Exception {
        long id = r.id("id");
        SendTestBody b = r.json(SendTestBody.class);
        List<String> to = addresses(b.to());
        String name = Strings.optional("name", b.name(), 200).orElse("");
        Map<String, String> fields = Strings.fields("fields", b.fields());
        Campaign campaign = campaigns.get(id);
        TestSend sender = testSend.get();
        List<Map<String, Object>> results = new ArrayList<>();
        // One after the other, each through its own connection, as send-test sends one: a refused address
        // does not keep the others from being tried.
        for (String address : to) {
            results.add(result(address, sender.send(campaign, address, name, fields)));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", id);
        body.put("results", results);
        return ApiResponse.json(200, body);
    }

    /** 1 to {@value #MAX_ADDRESSES} valid addresses, each once; any other list is 422 naming {@code to} (and the address). */
    private static List<String> addresses(List<String> to) {
        if (to == null || to.isEmpty()) {
            throw ApiException.invalid("to", "give 1-" + MAX_ADDRESSES + " addresses");
        }
        if (to.size() > MAX_ADDRESSES) {
            throw ApiException.invalid("to", "at most " + MAX_ADDRESSES + " addresses, got " + to.size());
        }
        Set<String> seen = new HashSet<>();
        List<String> checked = new ArrayList<>();
        for (String given : to) {
            String address = Strings.required("to", given, EmailAddress.MAX_ADDRESS_OCTETS).strip();
            if (EmailAddress.check(address) instanceof EmailAddress.Invalid invalid) {
                throw ApiException.invalid(List.of(InvalidFields.Problem.about("to", Shown.of(address), invalid.reason())));
            }
            if (!seen.add(address.toLowerCase(Locale.ROOT))) {
                throw ApiException.invalid(List.of(InvalidFields.Problem.about("to", Shown.of(address), "given twice")));
            }
            checked.add(address);
        }
        return checked;
    }

    /** What the relay said of one address's test: the outcome, the Message-ID when it was taken, the reply. */
    private static Map<String, Object> result(String to, SendResult result) {
        String outcome = "not_attempted";
        Integer code = null;
        String reply = null;
        if (result instanceof SendResult.Sent) {
            outcome = "sent";
        } else if (result instanceof SendResult.Transient t) {
            outcome = "deferred";
            code = t.code();
            reply = t.text();
        } else if (result instanceof SendResult.Throttled t) {
            outcome = "deferred";
            code = t.code();
            reply = t.text();
        } else if (result instanceof SendResult.Permanent p) {
            outcome = "refused";
            code = p.code();
            reply = p.text();
        } else if (result instanceof SendResult.Fatal f) {
            outcome = "relay_failed";
            reply = f.reason();
        } else if (result instanceof SendResult.Unreachable u) {
            outcome = "unreachable";
            reply = u.text();
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("to", to);
        m.put("outcome", outcome);
        m.put("message_id", result instanceof SendResult.Sent sent ? sent.messageId() : null);
        // 0: no reply (a connection that failed); the field is then null.
        m.put("smtp_code", code == null || code == 0 ? null : code);
        m.put("reply", reply);
        return m;
    }
}
