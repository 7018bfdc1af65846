package dev.mailrun.http.console;

import java.io.Writer;

/** What a console page answers: a page, a redirect after a change (303, so a reload does not repeat it), or a download. */
sealed interface Answer permits Answer.Page, Answer.Error, Answer.Document, Answer.Redirect, Answer.Download {

    /** An HTML page of the console, with its policy; {@code setCookie} null or a cookie to set with it. */
    record Page(int status, String html, String setCookie) implements Answer {
        Page(int status, String html) {
            this(status, html, null);
        }
    }

    /** A refusal or failure, shown as a page that says what to change. */
    record Error(int status, String message) implements Answer {}

    /**
     * A whole document shown as it is (the status report, a template preview) under its own policy;
     * {@code framedByConsole}: the console's own pages may frame it (the preview), no other page may.
     */
    record Document(String contentType, String body, String contentSecurityPolicy, boolean framedByConsole) implements Answer {
        Document(String contentType, String body, String contentSecurityPolicy) {
            this(contentType, body, contentSecurityPolicy, false);
        }
    }

    /** 303 See Other to a path of the console; {@code setCookie} when the login changed. */
    record Redirect(String location, String setCookie) implements Answer {}

    /** A file the browser saves: written straight to the response as it is read. */
    record Download(String contentType, String fileName, Body body) implements Answer {}

    @FunctionalInterface
    interface Body {
        void write(Writer out) throws Exception;
    }

    static Answer ok(String html) {
        return new Page(200, html);
    }

    static Answer error(int status, String message) {
        return new Error(status, message);
    }

    static Answer redirect(String location) {
        return new Redirect(location, null);
    }
}
