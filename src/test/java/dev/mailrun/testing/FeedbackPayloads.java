package dev.mailrun.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Provider event payloads in the shapes the providers document (SES notifications, Postmark bounce and
 * spam-complaint webhooks, SendGrid event batches, Mailgun event data), written for these tests with
 * made-up addresses and ids. Metadata maps are what each provider echoes from the message's headers.
 */
public final class FeedbackPayloads {

    private static final ObjectMapper JSON = new ObjectMapper();

    private FeedbackPayloads() {}

    public static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    // ---- Amazon SES (the "Message" of an SNS notification) ------------------------------------------

    /** The mail object: SES's own id, the original headers and, from event publishing, the message tags. */
    public static Map<String, Object> sesMail(String address, Map<String, String> tags, String messageIdHeader) {
        Map<String, Object> mail = new LinkedHashMap<>();
        mail.put("timestamp", "2026-11-21T10:00:00.000Z");
        mail.put("source", "news@sender.example");
        mail.put("sourceArn", "arn:aws:ses:us-east-1:123456789012:identity/sender.example");
        mail.put("sendingAccountId", "123456789012");
        mail.put("messageId", "0100018c1e2f3a4b-5c6d7e8f-0000-0000-0000-000000000000-000000");
        mail.put("destination", List.of(address));
        mail.put("headersTruncated", false);
        if (messageIdHeader != null) {
            mail.put("headers", List.of(Map.of("name", "Message-ID", "value", messageIdHeader),
                    Map.of("name", "To", "value", address)));
            mail.put("commonHeaders", Map.of("from", List.of("news@sender.example"), "to", List.of(address),
                    "messageId", messageIdHeader, "subject", "News"));
        }
        Map<String, List<String>> t = new LinkedHashMap<>();
        t.put("ses:configuration-set", List.of("mailrun"));
        tags.forEach((k, v) -> t.put(k, List.of(v)));
        mail.put("tags", t);
        return mail;
    }

    public static String sesBounce(String bounceType, String subType, String address, String status, String diagnostic,
                                   Map<String, String> tags, String messageIdHeader) {
        Map<String, Object> recipient = new LinkedHashMap<>();
        recipient.put("emailAddress", address);
        recipient.put("action", "failed");
        if (status != null) {
            recipient.put("status", status);
        }
        if (diagnostic != null) {
            recipient.put("diagnosticCode", diagnostic);
        }
        Map<String, Object> bounce = new LinkedHashMap<>();
        bounce.put("bounceType", bounceType);
        bounce.put("bounceSubType", subType);
        bounce.put("bouncedRecipients", List.of(recipient));
        bounce.put("timestamp", "2026-11-21T10:00:05.000Z");
        bounce.put("feedbackId", "0100018c1e2f3a4b-feedback-" + Math.abs(address.hashCode()));
        bounce.put("reportingMTA", "dns; mx.list.example");
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("eventType", "Bounce");
        n.put("bounce", bounce);
        n.put("mail", sesMail(address, tags, messageIdHeader));
        return json(n);
    }

    public static String sesComplaint(String address, String feedbackType, Map<String, String> tags) {
        Map<String, Object> complaint = new LinkedHashMap<>();
        complaint.put("complainedRecipients", List.of(Map.of("emailAddress", address)));
        complaint.put("timestamp", "2026-11-21T11:00:00.000Z");
        complaint.put("feedbackId", "0100018c1e2f3a4b-complaint-" + Math.abs(address.hashCode()));
        complaint.put("userAgent", "ExampleMail/1.0");
        complaint.put("complaintFeedbackType", feedbackType);
        complaint.put("arrivalDate", "2026-11-21T10:59:00.000Z");
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("notificationType", "Complaint");
        n.put("complaint", complaint);
        n.put("mail", sesMail(address, tags, null));
        return json(n);
    }

    public static String sesDelivery(String address, Map<String, String> tags) {
        Map<String, Object> delivery = new LinkedHashMap<>();
        delivery.put("timestamp", "2026-11-21T10:00:02.000Z");
        delivery.put("processingTimeMillis", 812);
        delivery.put("recipients", List.of(address));
        delivery.put("smtpResponse", "250 2.6.0 Message received");
        delivery.put("reportingMTA", "a8-30.smtp-out.amazonses.com");
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("notificationType", "Delivery");
        n.put("delivery", delivery);
        n.put("mail", sesMail(address, tags, null));
        return json(n);
    }

    // ---- Postmark ------------------------------------------------------------------------------------

    public static String postmarkBounce(long id, String type, int typeCode, String address, String details,
                                        Map<String, String> metadata) {
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("RecordType", "Bounce");
        b.put("MessageStream", "broadcast");
        b.put("ID", id);
        b.put("Type", type);
        b.put("TypeCode", typeCode);
        b.put("Name", type);
        b.put("Tag", "");
        b.put("MessageID", "883953f4-6105-42a2-a16a-" + String.format("%012d", id));
        b.put("Metadata", metadata);
        b.put("ServerID", 23);
        b.put("Description", "The server was unable to deliver your message.");
        b.put("Details", details);
        b.put("Email", address);
        b.put("From", "news@sender.example");
        b.put("BouncedAt", "2026-11-21T10:00:10.0000000-05:00");
        b.put("DumpAvailable", false);
        b.put("Inactive", true);
        b.put("CanActivate", true);
        b.put("Subject", "News");
        return json(b);
    }

    public static String postmarkSpamComplaint(long id, String address, Map<String, String> metadata) {
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("RecordType", "SpamComplaint");
        b.put("MessageStream", "broadcast");
        b.put("ID", id);
        b.put("Type", "SpamComplaint");
        b.put("TypeCode", 100001);
        b.put("Name", "Spam complaint");
        b.put("MessageID", "00000000-0000-0000-0000-" + String.format("%012d", id));
        b.put("Metadata", metadata);
        b.put("ServerID", 23);
        b.put("Details", "Test spam complaint details");
        b.put("Email", address);
        b.put("From", "news@sender.example");
        b.put("BouncedAt", "2026-11-21T11:00:00.0000000-05:00");
        b.put("Inactive", true);
        b.put("CanActivate", false);
        b.put("Subject", "News");
        return json(b);
    }

    // ---- SendGrid ------------------------------------------------------------------------------------

    /** One event of a batch; {@code fields} adds the event's own fields (reason, status, type, …). */
    public static Map<String, Object> sendgridEvent(String event, String address, String sgEventId, Map<String, String> customArgs,
                                                    Map<String, Object> fields) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("email", address);
        e.put("timestamp", 1763719200L);
        e.put("smtp-id", "<14c5d75ce93.dfd.64b469@ismtpd-555>");
        e.put("event", event);
        e.put("category", List.of("news"));
        e.put("sg_event_id", sgEventId);
        e.put("sg_message_id", "14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0");
        e.putAll(customArgs);
        e.putAll(fields);
        return e;
    }

    // ---- Mailgun ---------------------------------------------------------------------------------------

    public static Map<String, Object> mailgunEvent(String id, String event, String severity, String reason, String address,
                                                   Integer code, String message, Map<String, String> variables) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("id", id);
        d.put("timestamp", 1763719200.123456);
        d.put("log-level", "failed".equals(event) ? "error" : "info");
        d.put("event", event);
        if (severity != null) {
            d.put("severity", severity);
        }
        if (reason != null) {
            d.put("reason", reason);
        }
        d.put("recipient", address);
        d.put("recipient-domain", address.substring(address.indexOf('@') + 1));
        d.put("envelope", Map.of("sender", "bounces@sender.example", "transport", "smtp", "targets", address));
        d.put("message", Map.of("headers", Map.of("to", address, "message-id", "20261121100000.1.0000@sender.example",
                "from", "news@sender.example", "subject", "News"), "attachments", List.of(), "size", 4711));
        if (code != null) {
            Map<String, Object> status = new LinkedHashMap<>();
            status.put("attempt-no", 1);
            status.put("code", code);
            status.put("message", message);
            status.put("description", "");
            status.put("session-seconds", 0.4);
            d.put("delivery-status", status);
        }
        d.put("user-variables", variables);
        d.put("flags", Map.of("is-routed", false, "is-authenticated", true, "is-system-test", false, "is-test-mode", false));
        return d;
    }

    public static Instant at(String instant) {
        return Instant.parse(instant);
    }
}
