package dev.mailrun.http.api;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Opaque pagination cursors: the last item's key, tagged with the listing it belongs to and encoded,
 * so that clients pass it back without reading it (and a cursor of one listing is refused by another).
 */
final class Cursors {

    private Cursors() {}

    static String encode(String listing, Object lastKey) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString((listing + ":" + lastKey).getBytes(StandardCharsets.UTF_8));
    }

    static String decode(String listing, String cursor) {
        try {
            String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            if (text.startsWith(listing + ":")) {
                return text.substring(listing.length() + 1);
            }
        } catch (IllegalArgumentException bad) {
            // refused below
        }
        throw ApiException.invalid("cursor", "not a cursor this listing gave out");
    }

    static long decodeLong(String listing, String cursor) {
        String key = decode(listing, cursor);
        if (!key.matches("[0-9]{1,18}")) {
            throw ApiException.invalid("cursor", "not a cursor this listing gave out");
        }
        return Long.parseLong(key);
    }
}
