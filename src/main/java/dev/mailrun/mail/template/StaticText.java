package dev.mailrun.mail.template;

import io.pebbletemplates.pebble.extension.AbstractNodeVisitor;
import io.pebbletemplates.pebble.node.TextNode;
import io.pebbletemplates.pebble.template.PebbleTemplate;
import io.pebbletemplates.pebble.template.PebbleTemplateImpl;
import java.io.IOException;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The static pieces of one template file (the text between its tags), each converted once to the
 * bytes it takes in a 7bit body, so that rendering a recipient copies them instead of checking and
 * converting the same few kilobytes again for every message.
 *
 * <p>Pebble writes a static piece as its own {@code char[]} ({@code TextNode}), so a piece is
 * found by the identity of that array. A piece that cannot go out 7bit as it stands (a character
 * outside printable ASCII, a line over 998 characters between two of its line breaks) is left out
 * and written character by character, which then refuses it. Read-only once built.
 */
final class StaticText {

    /** No static pieces: every write is looked at character by character. */
    static final StaticText NONE = new StaticText(Map.of(), true);

    private final Map<char[], Piece> pieces;
    private final boolean allConverted;

    private StaticText(Map<char[], Piece> pieces, boolean allConverted) {
        this.pieces = pieces;
        this.allConverted = allConverted;
    }

    static StaticText of(PebbleTemplate template) {
        Map<char[], Piece> pieces = new IdentityHashMap<>();
        boolean[] allConverted = {template instanceof PebbleTemplateImpl};
        if (template instanceof PebbleTemplateImpl impl) {
            impl.getRootNode().accept(new AbstractNodeVisitor(impl) {
                @Override
                public void visit(TextNode node) {
                    char[] data = node.getData();
                    Piece piece = Piece.of(data);
                    if (piece != null) {
                        pieces.put(data, piece);
                    } else {
                        allConverted[0] = false;
                    }
                }
            });
        }
        return new StaticText(pieces, allConverted[0]);
    }

    /**
     * Whether every static piece converted. When one did not, the body cannot go out 7bit whenever
     * that piece is rendered (a template written in German, say): not worth a try per recipient.
     */
    boolean allConverted() {
        return allConverted;
    }

    /** The piece Pebble writes as {@code chars}; null for any other text. */
    Piece piece(char[] chars) {
        return pieces.get(chars);
    }

    int size() {
        return pieces.size();
    }

    /**
     * One piece as 7bit bytes. {@code firstLine}: its characters before its first line break (all
     * of them when it has none); {@code lastLine}: those after its last one. A CR at its end may be
     * the first half of a CRLF whose LF starts the next piece.
     */
    record Piece(byte[] bytes, boolean hasBreak, int firstLine, int lastLine, boolean startsWithLf,
                 boolean endsWithCr) {

        /**
         * The piece converted, by the same writer that converts merge values (so the rules live in
         * one place); null when it cannot go out 7bit on its own. A long last line is left to what
         * follows the piece: its line goes on after it.
         */
        static Piece of(char[] data) {
            SevenBitWriter out = new SevenBitWriter(NONE, data.length + data.length / 8 + 2);
            try {
                out.write(data, 0, data.length);
            } catch (IOException refused) {
                return null;
            }
            int firstBreak = 0;
            while (firstBreak < data.length && data[firstBreak] != '\r' && data[firstBreak] != '\n') {
                firstBreak++;
            }
            boolean hasBreak = firstBreak < data.length;
            return new Piece(out.bytesWritten(), hasBreak, firstBreak, out.lineLength(),
                    data.length > 0 && data[0] == '\n', data.length > 0 && data[data.length - 1] == '\r');
        }
    }
}
