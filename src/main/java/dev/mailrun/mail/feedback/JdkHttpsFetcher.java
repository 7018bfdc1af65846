package dev.mailrun.mail.feedback;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@link HttpsFetcher} over java.net.http: https only, no redirects, the JDK's trust store, a connect
 * timeout, a deadline for the whole exchange (a server that trickles its answer is cut off) and a size
 * limit (an SNS certificate is about 2 KiB). These are network deadlines, measured on the wall clock
 * like the SMTP timeouts; they decide nothing about campaigns.
 */
public final class JdkHttpsFetcher implements HttpsFetcher {

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    static final Duration DEADLINE = Duration.ofSeconds(10);
    static final int MAX_BYTES = 64 * 1024;

    private final HttpClient client = HttpClient.newBuilder()
            .connectTimeout(CONNECT_TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();

    @Override
    public byte[] get(URI uri) throws IOException {
        if (!"https".equals(uri.getScheme())) {
            throw new IOException("only https URLs are fetched, not " + uri.getScheme());
        }
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(DEADLINE).GET().build();
        CompletableFuture<HttpResponse<byte[]>> answer = client.sendAsync(request, info -> info.statusCode() == 200
                ? new LimitedBody(MAX_BYTES)
                : HttpResponse.BodySubscribers.replacing(null));
        try {
            HttpResponse<byte[]> response = answer.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
            if (response.statusCode() != 200 || response.body() == null) {
                throw new IOException(uri.getHost() + " answered " + response.statusCode());
            }
            return response.body();
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw new IOException(uri.getHost() + " did not answer within " + DEADLINE.toSeconds() + " s");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw cause instanceof IOException io ? io : new IOException(cause.toString(), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while fetching from " + uri.getHost(), e);
        }
    }

    /** Collects a body of at most {@code limit} bytes; more fails the exchange. */
    private static final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final int limit;
        private Flow.Subscription subscription;

        LimitedBody(int limit) {
            this.limit = limit;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            for (ByteBuffer b : items) {
                if (bytes.size() + b.remaining() > limit) {
                    subscription.cancel();
                    result.completeExceptionally(new IOException("answer larger than " + limit + " bytes"));
                    return;
                }
                byte[] chunk = new byte[b.remaining()];
                b.get(chunk);
                bytes.write(chunk, 0, chunk.length);
            }
        }

        @Override
        public void onError(Throwable t) {
            result.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            result.complete(bytes.toByteArray());
        }
    }
}
