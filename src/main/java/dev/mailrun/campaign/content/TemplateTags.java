package dev.mailrun.campaign.content;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keeps a body's Pebble tags ({@code {{ … }}}, {@code {% … %}}, {@code {# … #}}) out of reach of
 * the Markdown renderer and the HTML-to-text reader: each tag becomes a token of letters and digits,
 * which both leave alone, and comes back verbatim afterwards.
 *
 * <p>Why: the renderer escapes quotes in text ({@code default("there")} would come out as
 * {@code default(&quot;there&quot;)}, which no longer compiles), may read {@code *} or {@code _}
 * inside a tag as emphasis, and does not take {@code {{ unsubscribe_url }}} as a link's destination
 * (it holds spaces); the text reader collapses spaces, inside a tag's strings too.
 */
final class TemplateTags {

    private static final Pattern TAG = Pattern.compile("\\{\\{.*?}}|\\{%.*?%}|\\{#.*?#}", Pattern.DOTALL);

    private TemplateTags() {
    }

    /** A text with its tags replaced by tokens, and the way back. */
    record Protected(String text, String prefix, List<String> tags) {

        Protected {
            tags = List.copyOf(tags);
        }

        /** {@code processed} (what became of {@link #text}) with every token replaced by its tag. */
        String restore(String processed) {
            if (tags.isEmpty()) {
                return processed;
            }
            Matcher token = Pattern.compile(Pattern.quote(prefix) + "(\\d+)Z").matcher(processed);
            return token.replaceAll(m -> Matcher.quoteReplacement(tags.get(Integer.parseInt(m.group(1)))));
        }
    }

    static Protected protect(String text) {
        // A prefix the text does not hold, so no token can be mistaken for the author's own words.
        String prefix = "MAILRUNTAG";
        while (text.contains(prefix)) {
            prefix += "Q";
        }
        List<String> tags = new ArrayList<>();
        StringBuilder out = new StringBuilder(text.length());
        Matcher tag = TAG.matcher(text);
        while (tag.find()) {
            tag.appendReplacement(out, prefix + tags.size() + "Z");
            tags.add(tag.group());
        }
        tag.appendTail(out);
        return new Protected(out.toString(), prefix, tags);
    }
}
