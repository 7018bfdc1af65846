package dev.mailrun.campaign.model;

import dev.mailrun.mail.message.AddedHeaders;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The headers an operator adds to every message of a campaign ({@code campaign create --header
 * "Name: value"}, the API's {@code headers}), in the order given. The rule is the sender's own
 * ({@link AddedHeaders}): {@link #problem} is what create refuses, and a run checks them again
 * when it writes them.
 */
public record CustomHeaders(List<Header> list) {

    public static final CustomHeaders NONE = new CustomHeaders(List.of());
    /** The field a campaign's headers are given in. */
    private static final String FIELD = "headers";

    /** One header as given; the value's white space at either end is not sent. */
    public record Header(String name, String value) {

        /**
         * {@code Name: value}, as {@code --header} and the console take it: split at the first ':',
         * white space around name and value dropped.
         *
         * @throws InvalidFields naming the field {@code headers} when there is no ':'
         */
        public static Header parse(String line) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                throw InvalidFields.about(FIELD, "'" + shown(line) + "'", "must be Name: value");
            }
            return new Header(line.substring(0, colon).strip(), line.substring(colon + 1).strip());
        }

        private static String shown(String line) {
            String printable = line.codePoints().map(c -> c < 0x20 || c == 0x7f ? '?' : c)
                    .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
            return printable.length() > 80 ? printable.substring(0, 80) + "…" : printable;
        }
    }

    public CustomHeaders {
        list = List.copyOf(list);
    }

    /** {@code --header} lines ({@code Name: value}) as headers, in order; nothing checked beyond the ':'. */
    public static CustomHeaders parse(List<String> lines) {
        return new CustomHeaders(lines.stream().map(Header::parse).toList());
    }

    /**
     * Why these headers cannot be sent, as a problem of the field {@code headers}, about the header it
     * names ({@code X-Tag}: contains the control character U+000A (line feed), …) or about them all
     * (at most 20 headers, …); empty when they can.
     */
    public Optional<InvalidFields.Problem> problem() {
        return AddedHeaders.problem(entries()).map(r -> new InvalidFields.Problem(FIELD, r.header(), r.reason()));
    }

    /** The same, as a sentence of its own, as the sender says it: {@code header X-Tag: contains …}. */
    public Optional<String> refusal() {
        return AddedHeaders.problem(entries()).map(AddedHeaders.Refusal::sentence);
    }

    /** Name and value pairs, as the message composer takes them. */
    public List<Map.Entry<String, String>> entries() {
        return list.stream().map(h -> Map.entry(h.name() == null ? "" : h.name(), h.value() == null ? "" : h.value())).toList();
    }

    public boolean isEmpty() {
        return list.isEmpty();
    }

    /** As {@code campaign status} shows them: {@code X-Tag: spring; X-Other: 1}. */
    @Override
    public String toString() {
        return String.join("; ", list.stream().map(h -> h.name() + ": " + h.value()).toList());
    }
}
