package dev.mailrun.http.endpoint;

import dev.mailrun.campaign.feedback.FeedbackProcessor;
import dev.mailrun.campaign.feedback.FeedbackSummary;
import dev.mailrun.http.server.BodyReader;
import dev.mailrun.http.server.HttpLimits;
import dev.mailrun.mail.feedback.FeedbackWebhook;
import dev.mailrun.mail.feedback.Verdict;
import dev.mailrun.mail.feedback.WebhookRequest;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One email provider's webhook, {@code /feedback/<provider>}: POST only. The whole body is read first
 * (at most {@link HttpLimits#maxWebhookBodyBytes()}, within the body timeout), then the provider's
 * {@link FeedbackWebhook} checks it is genuine and fresh, then the {@link FeedbackProcessor} applies
 * its events.
 *
 * <table>
 *   <caption>Answers</caption>
 *   <tr><td>200</td><td>applied (events already applied count as duplicates; nothing changes twice)</td></tr>
 *   <tr><td>401</td><td>no or wrong signature or credentials (Postmark: with a Basic challenge)</td></tr>
 *   <tr><td>400</td><td>not the provider's format, a signature too old or too far ahead (a replay), an SNS topic
 *       not configured, or a Mailgun token used before</td></tr>
 *   <tr><td>413 / 408</td><td>body too large / too slow</td></tr>
 *   <tr><td>503</td><td>the SNS signing certificate could not be fetched: SNS delivers again</td></tr>
 *   <tr><td>500</td><td>the database failed: the provider delivers again</td></tr>
 * </table>
 *
 * Every refused request changes nothing and logs one line (provider, status, client address, reason),
 * never a secret and never the body.
 */
final class FeedbackHandler extends Handler.Abstract {

    private static final Logger log = LoggerFactory.getLogger(FeedbackHandler.class);

    private final FeedbackWebhook webhook;
    private final FeedbackProcessor processor;
    private final HttpLimits limits;

    FeedbackHandler(FeedbackWebhook webhook, FeedbackProcessor processor, HttpLimits limits) {
        this.webhook = webhook;
        this.processor = processor;
        this.limits = limits;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (!HttpMethod.POST.is(request.getMethod())) {
            response.getHeaders().put(HttpHeader.ALLOW, "POST");
            send(response, callback, HttpStatus.METHOD_NOT_ALLOWED_405, "use POST");
            return true;
        }
        String client = Request.getRemoteAddr(request);
        BodyReader.collect(request, limits.maxWebhookBodyBytes(), limits.bodyTimeout(), (outcome, body, failure) -> {
            switch (outcome) {
                case COMPLETE -> receive(request, body, client, response, callback);
                case TOO_LARGE -> {
                    refused(client, HttpStatus.PAYLOAD_TOO_LARGE_413, "body over " + limits.maxWebhookBodyBytes() + " bytes");
                    sendAndClose(response, callback, HttpStatus.PAYLOAD_TOO_LARGE_413, "request too large");
                }
                case TIMED_OUT -> {
                    refused(client, HttpStatus.REQUEST_TIMEOUT_408, "body not complete within " + limits.bodyTimeout().toSeconds() + " s");
                    sendAndClose(response, callback, HttpStatus.REQUEST_TIMEOUT_408, "request timed out");
                }
                case BROKEN -> callback.failed(failure);
            }
        });
        return true;
    }

    private void receive(Request request, byte[] body, String client, Response response, Callback callback) {
        Map<String, String> headers = new HashMap<>();
        for (HttpField f : request.getHeaders()) {
            headers.putIfAbsent(f.getLowerCaseName(), f.getValue());
        }
        Verdict verdict;
        try {
            verdict = webhook.receive(new WebhookRequest(headers, body));
        } catch (RuntimeException e) {
            log.error("feedback {}: request from {} could not be checked", webhook.provider().id(), client, e);
            send(response, callback, HttpStatus.INTERNAL_SERVER_ERROR_500, "please try again");
            return;
        }
        if (verdict instanceof Verdict.Refused r) {
            int status = status(r.reason());
            refused(client, status, r.reason().name().toLowerCase(java.util.Locale.ROOT) + ": " + r.detail());
            if (status == HttpStatus.UNAUTHORIZED_401) {
                webhook.challenge().ifPresent(c -> response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, c));
            }
            send(response, callback, status, message(r.reason()));
            return;
        }
        Verdict.Accepted accepted = (Verdict.Accepted) verdict;
        try {
            FeedbackSummary summary = processor.apply(webhook.provider(), accepted);
            if (summary.replayed()) {
                refused(client, HttpStatus.BAD_REQUEST_400, "replay: the signature's token was used before");
                send(response, callback, HttpStatus.BAD_REQUEST_400, "signature already used");
                return;
            }
            if (summary.changedAnything()) {
                log.info("feedback {}: {}", webhook.provider().id(), summary.describe());
            } else {
                log.debug("feedback {}: {}", webhook.provider().id(), summary.describe());
            }
            send(response, callback, HttpStatus.OK_200, "ok");
        } catch (SQLException | RuntimeException e) {
            log.error("feedback {}: {} events from {} could not be stored; the provider will deliver them again",
                    webhook.provider().id(), accepted.events().size(), client, e);
            send(response, callback, HttpStatus.INTERNAL_SERVER_ERROR_500, "please try again");
        }
    }

    private void refused(String client, int status, String why) {
        log.warn("feedback {}: refused ({}) a request from {}: {}", webhook.provider().id(), status, client, why);
    }

    static int status(Verdict.Reason reason) {
        return switch (reason) {
            case UNAUTHENTICATED -> HttpStatus.UNAUTHORIZED_401;
            case MALFORMED, STALE, UNKNOWN_TOPIC -> HttpStatus.BAD_REQUEST_400;
            case UNAVAILABLE -> HttpStatus.SERVICE_UNAVAILABLE_503;
        };
    }

    private static String message(Verdict.Reason reason) {
        return switch (reason) {
            case UNAUTHENTICATED -> "not authenticated";
            case MALFORMED -> "not a webhook request of this provider";
            case STALE -> "signature too old or too far ahead";
            case UNKNOWN_TOPIC -> "topic not accepted";
            case UNAVAILABLE -> "try again later";
        };
    }

    private static void send(Response response, Callback callback, int status, String text) {
        byte[] bytes = (text + "\n").getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }

    private static void sendAndClose(Response response, Callback callback, int status, String text) {
        response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE);
        send(response, callback, status, text);
    }
}
