package dev.mailrun.mail.template;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites the source of a template's HTML part once per run, before it is compiled: each trackable
 * link's {@code href} becomes {@code {{ mailrun_click[i] }}} and, with opens, an image
 * {@code {{ mailrun_open }}} goes before {@code </body>}. Rendering then only fills in each
 * recipient's signed URLs ({@link MergeFields#tracked}); the static text around them is compiled
 * once as before.
 *
 * <p>Why not an HTML parser: the source is a Pebble template, not HTML ({@code {% if %}} inside a
 * tag, an {@code href} made of a merge field), and a parser would re-serialise the whole document,
 * changing bytes of links that are not tracked. Only the {@code href} value of an {@code <a>} tag
 * is touched; everything else stays byte for byte.
 *
 * <p>A link is left as written when its value holds a template tag (a merge field such as
 * {@code {{ unsubscribe_url }}}: never tracked), it is not an absolute http(s) URL ({@code mailto:},
 * {@code tel:}, {@code #anchor}, a relative path), its tag has a {@code data-notrack} attribute, or its
 * host is an excluded domain.
 *
 * <p>The open image goes in only where it adds no spam signal: when the HTML already has an image
 * of its own, or is at least {@link #IMAGE_ONLY_BELOW} characters long. SpamAssassin's
 * {@code HTML_IMAGE_ONLY_04}…{@code _32} rules score any image in a shorter HTML part (0.6 to 2.8
 * points in its default scores), so on a short image-less message the 1×1 image alone would cost
 * more than a point (docs/TRACKING.md, "Deliverability").
 */
final class TrackedHtml {

    static final String CLICK_FIELD = "mailrun_click";
    static final String OPEN_FIELD = "mailrun_open";

    private static final Pattern A_TAG = Pattern.compile("<a\\s[^>]*>", Pattern.CASE_INSENSITIVE);
    private static final Pattern HREF = Pattern.compile("(\\shref\\s*=\\s*)(\"([^\"]*)\"|'([^']*)')", Pattern.CASE_INSENSITIVE);
    private static final Pattern NOTRACK = Pattern.compile("\\sdata-notrack(\\s|=|>|/)", Pattern.CASE_INSENSITIVE);
    private static final Pattern BODY_END = Pattern.compile("</body\\s*>", Pattern.CASE_INSENSITIVE);
    private static final Pattern IMG_TAG = Pattern.compile("<img[\\s/>]", Pattern.CASE_INSENSITIVE);
    /** SpamAssassin's image-only rules look at HTML parts shorter than this (its raw length in bytes). */
    static final int IMAGE_ONLY_BELOW = 3200;

    /**
     * The source as rewritten, the URL of each rewritten link in the order of its index, and whether
     * it carries the open image (asked for, and {@link #imageAddsNoSignal}).
     */
    record Rewritten(String source, List<URI> links, boolean openImage) {}

    private TrackedHtml() {
    }

    static Rewritten rewrite(String source, LinkTracking tracking) {
        List<URI> links = new ArrayList<>();
        String out = tracking.clicks() ? rewriteLinks(source, tracking, links) : source;
        boolean openImage = tracking.opens() && imageAddsNoSignal(source);
        if (openImage) {
            out = withPixel(out);
        }
        return new Rewritten(out, List.copyOf(links), openImage);
    }

    private static String rewriteLinks(String source, LinkTracking tracking, List<URI> links) {
        Matcher tag = A_TAG.matcher(source);
        StringBuilder out = new StringBuilder(source.length() + 256);
        int copied = 0;
        while (tag.find()) {
            String text = tag.group();
            if (NOTRACK.matcher(text).find()) {
                continue;
            }
            Matcher href = HREF.matcher(text);
            if (!href.find()) {
                continue;
            }
            String raw = href.group(3) != null ? href.group(3) : href.group(4);
            URI target = trackable(raw, tracking);
            if (target == null) {
                continue;
            }
            int valueStart = tag.start() + href.start(2) + 1;
            int valueEnd = tag.start() + href.end(2) - 1;
            out.append(source, copied, valueStart).append("{{ ").append(CLICK_FIELD).append('[').append(links.size()).append("] }}");
            copied = valueEnd;
            links.add(target);
        }
        return out.append(source, copied, source.length()).toString();
    }

    /** The URL a link goes to, or null when it is not rewritten. */
    static URI trackable(String raw, LinkTracking tracking) {
        if (raw.contains("{{") || raw.contains("{%") || raw.contains("{#")) {
            return null;
        }
        String value = Entities.decode(raw.strip());
        String lower = value.toLowerCase(Locale.ROOT);
        if (!lower.startsWith("http://") && !lower.startsWith("https://")) {
            return null;
        }
        URI uri;
        try {
            uri = new URI(value);
        } catch (URISyntaxException e) {
            return null;   // not a URL a redirect could name: left as written
        }
        if (uri.getHost() == null || tracking.excludes(uri.getHost()) || !isAscii(value)) {
            return null;
        }
        return uri;
    }

    private static boolean isAscii(String s) {
        return s.chars().allMatch(c -> c > 0x20 && c < 0x7F);
    }

    /** Whether the HTML has an image of its own or is long enough for the image-only rules to pass it by. */
    static boolean imageAddsNoSignal(String source) {
        return IMG_TAG.matcher(source).find() || source.getBytes(java.nio.charset.StandardCharsets.UTF_8).length >= IMAGE_ONLY_BELOW;
    }

    private static String withPixel(String source) {
        String img = "<img src=\"{{ " + OPEN_FIELD + " }}\" width=\"1\" height=\"1\" alt=\"\" style=\"display:block;border:0\">";
        Matcher end = BODY_END.matcher(source);
        int at = -1;
        while (end.find()) {
            at = end.start();
        }
        return at < 0 ? source + img : source.substring(0, at) + img + source.substring(at);
    }

    /** The few character references an {@code href} carries in practice: {@code &amp;} and numeric ones. */
    static final class Entities {
        private static final Pattern REF = Pattern.compile("&(amp|quot|apos|lt|gt|#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6});");

        private Entities() {
        }

        static String decode(String s) {
            if (s.indexOf('&') < 0) {
                return s;
            }
            Matcher m = REF.matcher(s);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                String name = m.group(1);
                String replacement = switch (name) {
                    case "amp" -> "&";
                    case "quot" -> "\"";
                    case "apos" -> "'";
                    case "lt" -> "<";
                    case "gt" -> ">";
                    default -> {
                        int cp = name.charAt(1) == 'x' || name.charAt(1) == 'X'
                                ? Integer.parseInt(name.substring(2), 16) : Integer.parseInt(name.substring(1));
                        yield Character.isValidCodePoint(cp) ? new String(Character.toChars(cp)) : m.group();
                    }
                };
                m.appendReplacement(out, Matcher.quoteReplacement(replacement));
            }
            m.appendTail(out);
            return out.toString();
        }
    }
}
