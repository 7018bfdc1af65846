package dev.mailrun.http.console;

import dev.mailrun.campaign.content.BodyFormat;
import dev.mailrun.campaign.content.MessageForm;
import dev.mailrun.campaign.content.OwnMessage;
import dev.mailrun.campaign.model.InvalidFields;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The form of a campaign's own message — {@code layout}, {@code subject}, {@code format}, {@code body},
 * {@code text} — read as the API reads its {@code message} (the layout a name of at most
 * {@value #MAX_LAYOUT} characters, the format a word of {@link BodyFormat}), everything else left to the
 * domain to check; and the domain's problems put beside the fields they name.
 */
final class MessageFields {

    /** The form's fields, in the order the page shows them. */
    static final List<String> FIELDS = List.of("layout", "subject", "format", "body", "text");
    /** A template name's longest, as the API's {@code message.layout}. */
    static final int MAX_LAYOUT = 64;

    private MessageFields() {}

    /** What was read: the message, or the problems this form itself found (then the domain is not asked). */
    record Read(Optional<MessageForm> form, Map<String, String> errors) {}

    static Read read(Map<String, String> form) {
        Map<String, String> errors = new LinkedHashMap<>();
        String layout = form.getOrDefault("layout", "").strip();
        if (layout.isEmpty()) {
            errors.put("layout", "choose the layout the message is placed into");
        } else if (layout.length() > MAX_LAYOUT) {
            errors.put("layout", "at most " + MAX_LAYOUT + " characters");
        }
        String word = form.getOrDefault("format", "");
        Optional<BodyFormat> format = BodyFormat.named(word);
        if (format.isEmpty()) {
            errors.put("format", "must be markdown or html, got '" + word.strip() + "'");
        }
        if (!errors.isEmpty()) {
            return new Read(Optional.empty(), errors);
        }
        // A browser sends a text area's line breaks as CRLF: the message holds the LF they stand for. The
        // body is not stripped, as indentation is Markdown; an empty text area is no text of its own.
        String text = lf(form.getOrDefault("text", ""));
        OwnMessage message = new OwnMessage(form.getOrDefault("subject", ""), lf(form.getOrDefault("body", "")),
                format.get(), text.isBlank() ? Optional.empty() : Optional.of(text));
        return new Read(Optional.of(new MessageForm(layout, message)), errors);
    }

    /** The domain's problems, each beside the field it names (several joined). */
    static Map<String, String> errors(InvalidFields refused) {
        Map<String, String> errors = new LinkedHashMap<>();
        refused.problems().forEach(p -> errors.merge(p.field(), p.reason(), (a, b) -> a + "; " + b));
        return errors;
    }

    /** The form's fields holding {@code form}, as it was written. */
    static Map<String, String> of(MessageForm form) {
        Map<String, String> values = new HashMap<>();
        values.put("layout", form.layout());
        values.put("subject", form.message().subject());
        values.put("format", form.message().format().word());
        values.put("body", form.message().body());
        values.put("text", form.message().text().orElse(""));
        return values;
    }

    /** The values the page shows: what was posted, each field present (a new form writes Markdown). */
    static Map<String, String> values(Map<String, String> posted) {
        Map<String, String> values = new HashMap<>(posted);
        for (String field : List.of("layout", "subject", "body", "text", "sampleEmail", "sampleName", "sampleFields")) {
            values.putIfAbsent(field, "");
        }
        values.putIfAbsent("format", BodyFormat.MARKDOWN.word());
        return values;
    }

    private static String lf(String text) {
        return text.replace("\r\n", "\n").replace('\r', '\n');
    }
}
