package dev.mailrun.campaign.content;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;

/**
 * The text part read out of an HTML body, for people whose mail program shows text: paragraphs,
 * headings, tables and quotes set apart by blank lines; list items as {@code - } (numbered in an
 * ordered list), indented when nested; {@code <br>} a line break; a link as its text and a number,
 * {@code text [1]}, with its address under {@code Links:} at the end (a link whose text is its
 * address stays as that text); images as their alt text. Entities are decoded and runs of spaces
 * collapsed; lines are not wrapped, which the message's encoding takes care of.
 *
 * <p>Merge tags come through unchanged ({@link TemplateTags}), in the text and in the addresses,
 * so the text merges per recipient like the HTML.
 */
public final class PlainTextOf {

    private static final Set<String> SKIPPED = Set.of("script", "style", "head", "title", "template");
    /** Blocks set apart by a blank line. */
    private static final Set<String> BLOCKS = Set.of("p", "h1", "h2", "h3", "h4", "h5", "h6", "table", "dl",
            "figure", "hr");
    /** Blocks that start a new line. */
    private static final Set<String> LINES = Set.of("div", "section", "article", "header", "footer", "main", "nav",
            "aside", "tr", "dt", "dd", "caption", "figcaption", "address", "center", "form", "fieldset", "details",
            "summary");

    private final Map<String, Integer> links = new LinkedHashMap<>();
    private final TemplateTags.Protected tagged;
    private int listDepth;

    private PlainTextOf(TemplateTags.Protected tagged) {
        this.tagged = tagged;
    }

    /** The readable text of {@code html}, without a final line break. */
    public static String html(String html) {
        TemplateTags.Protected tagged = TemplateTags.protect(html);
        PlainTextOf reader = new PlainTextOf(tagged);
        TextLines out = new TextLines();
        reader.children(Jsoup.parse(tagged.text()).body(), out);
        StringBuilder text = new StringBuilder(out.text());
        if (!reader.links.isEmpty()) {
            text.append("\n\nLinks:");
            reader.links.forEach((address, n) -> text.append("\n[").append(n).append("] ").append(address));
        }
        return tagged.restore(text.toString());
    }

    private void children(Node parent, TextLines out) {
        for (Node child : parent.childNodes()) {
            node(child, out);
        }
    }

    private void node(Node node, TextLines out) {
        if (node instanceof TextNode text) {
            out.inline(text.getWholeText());
        } else if (node instanceof Element element) {
            element(element, out);
        }
    }

    private void element(Element element, TextLines out) {
        String tag = element.normalName();
        switch (tag) {
            case "br" -> out.lineBreak();
            case "hr" -> {
                out.block();
                out.word("----");
                out.block();
            }
            case "img" -> out.inline(" " + element.attr("alt") + " ");
            case "a" -> link(element, out);
            case "ul", "ol" -> list(element, tag.equals("ol"), out);
            case "pre" -> {
                out.block();
                out.verbatim(element.wholeText());
                out.block();
            }
            case "blockquote" -> quote(element, out);
            case "td", "th" -> {
                if (element.previousElementSibling() != null) {
                    out.space();
                    out.word("|");
                    out.space();
                }
                children(element, out);
            }
            default -> {
                if (SKIPPED.contains(tag)) {
                    return;
                }
                boolean block = BLOCKS.contains(tag);
                boolean line = LINES.contains(tag);
                if (block || line) {
                    breakFor(block, out);
                    children(element, out);
                    breakFor(block, out);
                } else {
                    children(element, out);
                }
            }
        }
    }

    private static void breakFor(boolean block, TextLines out) {
        if (block) {
            out.block();
        } else {
            out.line();
        }
    }

    private void link(Element a, TextLines out) {
        String href = tagged.restore(a.attr("href").strip());
        String text = tagged.restore(a.text().strip());
        if (href.isEmpty() || href.startsWith("#")) {
            children(a, out);
        } else if (text.isEmpty()) {
            out.inline(" " + href + " ");
        } else if (sameAddress(text, href)) {
            children(a, out);
        } else {
            children(a, out);
            out.space();
            out.word("[" + links.computeIfAbsent(href, h -> links.size() + 1) + "]");
        }
    }

    /** Whether a link's text says its address: {@code https://example.com}, {@code example.com/}, {@code ann@example.com}. */
    private static boolean sameAddress(String text, String href) {
        return bare(text).equalsIgnoreCase(bare(href));
    }

    private static String bare(String address) {
        return address.replaceFirst("^(?i)(https?://|mailto:)", "").replaceFirst("/$", "");
    }

    private void list(Element list, boolean ordered, TextLines out) {
        if (listDepth == 0) {
            out.block();
        }
        listDepth++;
        int start = ordered ? startOf(list) : 0;
        int number = start;
        for (Node child : list.childNodes()) {
            if (child instanceof Element item && item.normalName().equals("li")) {
                out.marker("  ".repeat(listDepth - 1) + (ordered ? number + ". " : "- "), number == start);
                number++;
                children(item, out);
            } else {
                node(child, out);
            }
        }
        listDepth--;
        if (listDepth == 0) {
            out.block();
        } else {
            out.line();
        }
    }

    private static int startOf(Element ol) {
        try {
            return Integer.parseInt(ol.attr("start").strip());
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    /** A quote's lines, each after {@code > }. */
    private void quote(Element quote, TextLines out) {
        TextLines inner = new TextLines();
        int depth = listDepth;
        listDepth = 0;
        children(quote, inner);
        listDepth = depth;
        String text = inner.text();
        if (text.isEmpty()) {
            return;
        }
        out.block();
        out.verbatim(text.lines().map(line -> line.isEmpty() ? ">" : "> " + line)
                .reduce((a, b) -> a + "\n" + b).orElse(""));
        out.block();
    }
}
