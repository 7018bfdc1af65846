package dev.mailrun.mail.feedback;

import java.io.IOException;
import java.net.URI;

/**
 * Fetches a small document by GET: the SNS signing certificate, or an SNS SubscribeURL to confirm a
 * subscription. Callers hand it only https URLs on an SNS host ({@link SnsHosts}). Production uses
 * {@link JdkHttpsFetcher}; tests hand out a local certificate instead of going to the network.
 */
public interface HttpsFetcher {

    /** The body of a 200 answer; IOException when the server cannot be reached, answers otherwise, or sends too much. */
    byte[] get(URI uri) throws IOException;
}
