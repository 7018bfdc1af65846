package dev.mailrun.http;

/** The pages the unsubscribe endpoint shows: small, self-contained, no scripts, no external resources; and the escaper every page uses. */
final class Html {

    private Html() {}

    static String escape(String s) {
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

    /** The form has no action: it posts back to the very URL shown, whatever prefix a proxy added. */
    static String confirm(String address) {
        return page("Unsubscribe", """
                <p>Stop all mail to <strong>%s</strong>?</p>
                <form method="post">
                  <input type="hidden" name="List-Unsubscribe" value="One-Click">
                  <button type="submit">Unsubscribe</button>
                </form>""".formatted(escape(address)));
    }

    static String done(String address) {
        return page("Unsubscribed", "<p><strong>%s</strong> will receive no more mail from us.</p>"
                .formatted(escape(address)));
    }

    static String error(String title, String message) {
        return page(title, "<p>" + escape(message) + "</p>");
    }

    private static String page(String title, String body) {
        return """
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <meta name="robots" content="noindex">
                <title>%s</title></head>
                <body style="font-family: sans-serif; max-width: 32em; margin: 3em auto;">
                <h1>%s</h1>
                %s
                </body></html>
                """.formatted(escape(title), escape(title), body);
    }
}
