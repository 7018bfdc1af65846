package dev.mailrun.app.cli;

import dev.mailrun.campaign.content.BodyFormat;
import dev.mailrun.campaign.content.MessageForm;
import dev.mailrun.campaign.content.OwnMessage;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code campaign create}'s options for a campaign's own message placed into a layout template
 * (docs/CONTENT.md, "A campaign's own message"): read here, checked by the campaign service.
 */
final class MessageOptions {

    @Option(names = "--layout", paramLabel = "T",
            description = "A layout template holding {{ content }}: the campaign sends its own --body placed into it "
                    + "(instead of --template), stored as the template named after the campaign.") String layout;
    @Option(names = "--body", paramLabel = "FILE", description = "The message's body, HTML or Markdown (with --layout).") Path body;
    @Option(names = "--body-format", paramLabel = "F",
            description = "markdown or html; default: markdown for a .md or .markdown file, html otherwise.") String format;
    @Option(names = "--text", paramLabel = "FILE",
            description = "The text part's content; default: read out of the body's HTML.") Path text;

    /** Whether any of these options was given. */
    boolean given() {
        return layout != null || body != null || format != null || text != null;
    }

    /**
     * The message, its subject from {@code --subject}.
     *
     * @throws UsageException for a missing option, an unknown format or a file that cannot be read
     */
    MessageForm form(String subject, long maxBytes) {
        if (layout == null || body == null) {
            throw new UsageException("a campaign's own message needs --layout and --body (and --subject)");
        }
        if (subject == null) {
            throw new UsageException("--subject: a campaign's own message needs its subject");
        }
        BodyFormat bodyFormat = format != null
                ? BodyFormat.named(format).orElseThrow(() -> new UsageException("--body-format must be markdown or html, got '"
                        + format + "'"))
                : body.getFileName().toString().toLowerCase(Locale.ROOT).matches(".*\\.(md|markdown)") ? BodyFormat.MARKDOWN
                : BodyFormat.HTML;
        return new MessageForm(layout, new OwnMessage(subject, read("--body", body, maxBytes), bodyFormat,
                Optional.ofNullable(text).map(t -> read("--text", t, maxBytes))));
    }

    /** A file's UTF-8 text; one larger than the limit is refused before it is read. */
    private static String read(String option, Path file, long maxBytes) {
        try {
            long size = Files.size(file);
            if (size > maxBytes) {
                throw new UsageException(option + ": " + file + " takes " + size + " bytes, more than the limit of " + maxBytes
                        + " (content.max-template-bytes)");
            }
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(file))).toString();
        } catch (CharacterCodingException e) {
            throw new UsageException(option + ": " + file + " is not UTF-8 text");
        } catch (IOException e) {
            throw new UsageException(option + ": cannot read " + file + " (" + e.getClass().getSimpleName() + ")");
        }
    }
}
