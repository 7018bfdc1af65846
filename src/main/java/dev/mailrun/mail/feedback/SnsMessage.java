package dev.mailrun.mail.feedback;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * The envelope of one SNS HTTP(S) delivery, and the string its signature covers: each signed field
 * as {@code Name\nvalue\n}, in the documented order — for a Notification Message, MessageId,
 * Subject (only when present), Timestamp, TopicArn, Type; for a SubscriptionConfirmation or
 * UnsubscribeConfirmation Message, MessageId, SubscribeURL, Timestamp, Token, TopicArn, Type.
 */
record SnsMessage(String type, String messageId, String topicArn, Optional<String> subject, String message,
                  String timestamp, String signatureVersion, String signature, String signingCertUrl,
                  Optional<String> subscribeUrl, Optional<String> token) {

    static final String NOTIFICATION = "Notification";
    static final String SUBSCRIPTION_CONFIRMATION = "SubscriptionConfirmation";
    static final String UNSUBSCRIBE_CONFIRMATION = "UnsubscribeConfirmation";

    /** The envelope, or empty when a field a message of its type must have is missing. */
    static Optional<SnsMessage> read(JsonNode json) {
        Optional<String> type = Json.text(json, "Type");
        Optional<String> messageId = Json.text(json, "MessageId");
        Optional<String> topicArn = Json.text(json, "TopicArn");
        Optional<String> message = Json.text(json, "Message");
        Optional<String> timestamp = Json.text(json, "Timestamp");
        Optional<String> version = Json.text(json, "SignatureVersion");
        Optional<String> signature = Json.text(json, "Signature");
        Optional<String> cert = Json.text(json, "SigningCertURL").or(() -> Json.text(json, "SigningCertUrl"));
        if (type.isEmpty() || messageId.isEmpty() || topicArn.isEmpty() || message.isEmpty() || timestamp.isEmpty()
                || version.isEmpty() || signature.isEmpty() || cert.isEmpty()) {
            return Optional.empty();
        }
        SnsMessage m = new SnsMessage(type.get(), messageId.get(), topicArn.get(), Json.text(json, "Subject"), message.get(),
                timestamp.get(), version.get(), signature.get(), cert.get(),
                Json.text(json, "SubscribeURL"), Json.text(json, "Token"));
        boolean confirmation = m.isConfirmation();
        if (!confirmation && !type.get().equals(NOTIFICATION)) {
            return Optional.empty();
        }
        if (confirmation && (m.subscribeUrl.isEmpty() || m.token.isEmpty())) {
            return Optional.empty();
        }
        return Optional.of(m);
    }

    boolean isConfirmation() {
        return type.equals(SUBSCRIPTION_CONFIRMATION) || type.equals(UNSUBSCRIBE_CONFIRMATION);
    }

    String canonical() {
        StringBuilder sb = new StringBuilder(message.length() + 512);
        field(sb, "Message", message);
        field(sb, "MessageId", messageId);
        if (isConfirmation()) {
            field(sb, "SubscribeURL", subscribeUrl.orElseThrow());
            field(sb, "Timestamp", timestamp);
            field(sb, "Token", token.orElseThrow());
        } else {
            subject.ifPresent(s -> field(sb, "Subject", s));
            field(sb, "Timestamp", timestamp);
        }
        field(sb, "TopicArn", topicArn);
        field(sb, "Type", type);
        return sb.toString();
    }

    private static void field(StringBuilder sb, String name, String value) {
        sb.append(name).append('\n').append(value).append('\n');
    }
}
