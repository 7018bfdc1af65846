package dev.mailrun.events;

/** What the dispatcher tells the metrics; implemented outside the package (metrics), wired by app. */
public interface DeliveryListener {

    /** {@code n} events of {@code type} taken from the outbox for delivery. */
    default void written(String type, long n) {}

    default void delivered(String endpoint, String type, long n) {}

    /** Refused for good by the endpoint (a 4xx other than 408 and 429). */
    default void failed(String endpoint, String type, long n) {}

    /** An attempt that failed and will be made again. */
    default void retried(String endpoint) {}

    default void disabled(String endpoint) {}

    /** Events removed by the retention setting while a delivery of theirs was still pending. */
    default void expiredUndelivered(long n) {}

    DeliveryListener NONE = new DeliveryListener() {};
}
