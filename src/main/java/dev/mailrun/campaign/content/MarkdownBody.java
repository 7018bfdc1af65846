package dev.mailrun.campaign.content;

import java.util.List;
import org.commonmark.Extension;
import org.commonmark.ext.autolink.AutolinkExtension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;

/**
 * A campaign's own Markdown body as HTML: CommonMark, with GitHub's tables and bare links made
 * links. Merge tags come through unchanged ({@link TemplateTags}), so the HTML compiles and merges
 * per recipient like a template's.
 *
 * <p>Raw HTML in the Markdown is kept as written, not escaped: the operator who writes a campaign's
 * body is trusted as the author of its templates is (who writes the whole HTML part), and a
 * newsletter needs the odd {@code <span style>} or button Markdown has no syntax for.
 */
public final class MarkdownBody {

    private static final List<Extension> EXTENSIONS = List.of(TablesExtension.create(), AutolinkExtension.create());
    // Both are thread-safe once built.
    private static final Parser PARSER = Parser.builder().extensions(EXTENSIONS).build();
    private static final HtmlRenderer RENDERER = HtmlRenderer.builder().extensions(EXTENSIONS).build();

    private MarkdownBody() {
    }

    /** The HTML of {@code markdown}, without a trailing line break. */
    public static String toHtml(String markdown) {
        TemplateTags.Protected tagged = TemplateTags.protect(markdown);
        return tagged.restore(RENDERER.render(PARSER.parse(tagged.text()))).stripTrailing();
    }
}
