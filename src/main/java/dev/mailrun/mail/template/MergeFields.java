package dev.mailrun.mail.template;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The names every template can use, and the one place the per-recipient value map is assembled.
 *
 * <p>Imported columns come first so that the built-in fields always win: a CSV column called
 * {@code email} must not be able to change where the unsubscribe link or the envelope points.
 */
public final class MergeFields {

    static final String EMAIL = "email";
    static final String NAME = "name";
    static final String UNSUBSCRIBE_URL = "unsubscribe_url";
    /** The recipient's signed link to the message as sent to them, on the public listener. */
    static final String WEB_URL = "web_url";
    static final String CAMPAIGN = "campaign";
    /**
     * The recipient's signed link to the preference centre (docs/PREFERENCES.md): set for a message of a
     * campaign sent to lists, empty text otherwise (imported recipients, test sends, web versions).
     */
    static final String PREFERENCES_URL = "preferences_url";

    /** Fields present for every recipient, whatever was imported. */
    static final Set<String> BUILT_IN = Set.of(EMAIL, NAME, UNSUBSCRIBE_URL, WEB_URL, CAMPAIGN, PREFERENCES_URL);

    private MergeFields() {
    }

    /** The field names a template may rely on, given the imported column names. */
    public static Set<String> available(Set<String> importedColumns) {
        Set<String> all = new LinkedHashSet<>(BUILT_IN);
        all.addAll(importedColumns);
        return Set.copyOf(all);
    }

    /**
     * The values for one recipient.
     *
     * @param name   may be empty; it is still defined so templates can test it with {@code {% if name %}}
     * @param webUrl the recipient's web version link ({@code {{ web_url }}})
     */
    public static Map<String, Object> of(String email, String name, Map<String, String> columns,
                                         String unsubscribeUrl, String webUrl, String campaign) {
        Objects.requireNonNull(email, "email");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(columns, "columns");
        Objects.requireNonNull(unsubscribeUrl, "unsubscribeUrl");
        Objects.requireNonNull(webUrl, "webUrl");
        Objects.requireNonNull(campaign, "campaign");
        Map<String, Object> values = new HashMap<>(columns);
        values.put(EMAIL, email);
        values.put(NAME, name);
        values.put(UNSUBSCRIBE_URL, unsubscribeUrl);
        values.put(WEB_URL, webUrl);
        values.put(CAMPAIGN, campaign);
        values.put(PREFERENCES_URL, "");
        return values;
    }

    /** {@code values} with the recipient's preference centre link ({@code {{ preferences_url }}}), which {@link #of} leaves empty. */
    public static Map<String, Object> withPreferences(Map<String, Object> values, String preferencesUrl) {
        values.put(PREFERENCES_URL, Objects.requireNonNull(preferencesUrl, "preferencesUrl"));
        return values;
    }

    /**
     * {@code values} with one recipient's tracking URLs, for a template loaded with
     * {@link TemplateLoader#load(String, LinkTracking)}: {@code clicks.get(i)} is the URL of link
     * {@code i} (computed when the body asks for it), {@code open} the image's URL (empty without opens).
     */
    public static Map<String, Object> tracked(Map<String, Object> values, List<String> clicks, String open) {
        Objects.requireNonNull(clicks, "clicks");
        Objects.requireNonNull(open, "open");
        values.put(TrackedHtml.CLICK_FIELD, clicks);
        values.put(TrackedHtml.OPEN_FIELD, open);
        return values;
    }
}
