package dev.mailrun.http.server;

/**
 * The escaper every page uses, and the bare page of the error answers of a listener without a page
 * shell (the admin listener's unknown paths and Jetty's refusals there): small, self-contained, no
 * scripts, no external resources, no configuration. The pages a person is meant to read, the public
 * listener's error answers among them, are {@link PublicPage}'s.
 */
public final class Html {

    private Html() {}

    public static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    /** {@code text} escaped and set in bold: a page's address or name the sentence is about. */
    public static String strong(String text) {
        return "<strong>" + escape(text) + "</strong>";
    }

    /** A page that says what went wrong in one sentence. */
    public static String error(String title, String message) {
        return page(title, "<p>" + escape(message) + "</p>");
    }

    /** A page titled {@code title} around {@code body}, HTML the caller has escaped. */
    public static String page(String title, String body) {
        return """
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <meta name="robots" content="noindex">
                <title>%s</title></head>
                <body style="font-family: sans-serif; max-width: 32em; margin: 3em auto; overflow-wrap: anywhere;">
                <h1>%s</h1>
                %s
                </body></html>
                """.formatted(escape(title), escape(title), body);
    }
}
