package dev.mailrun.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The definition of a task to create or update.
 *
 * @param misfireThreshold lateness below which a slot is still run normally; empty means one interval
 * @param firstRunAt       the first slot; later slots are {@code firstRunAt + n × interval}
 */
public record NewTask(String name, String description, String handler, Duration interval, MisfirePolicy misfirePolicy,
                      Optional<Duration> misfireThreshold, Metadata metadata, Instant firstRunAt) {

    public NewTask {
        requireText(name, "name", 191);
        Objects.requireNonNull(description, "description");
        if (description.length() > 1000) {
            throw new IllegalArgumentException("a task description is at most 1000 characters");
        }
        requireText(handler, "handler", 191);
        requirePositive(interval, "interval");
        Objects.requireNonNull(misfirePolicy, "misfirePolicy");
        Objects.requireNonNull(misfireThreshold, "misfireThreshold").ifPresent(t -> requirePositive(t, "misfireThreshold"));
        metadata = Objects.requireNonNull(metadata, "metadata").copy();
        Objects.requireNonNull(firstRunAt, "firstRunAt");
    }

    /** A task with no description, FIRE_ONCE_NOW, a threshold of one interval and empty metadata. */
    public static NewTask of(String name, String handler, Duration interval, Instant firstRunAt) {
        return new NewTask(name, "", handler, interval, MisfirePolicy.FIRE_ONCE_NOW, Optional.empty(),
                Metadata.empty(), firstRunAt);
    }

    public NewTask withDescription(String value) {
        return new NewTask(name, value, handler, interval, misfirePolicy, misfireThreshold, metadata, firstRunAt);
    }

    NewTask withMisfirePolicy(MisfirePolicy value) {
        return new NewTask(name, description, handler, interval, value, misfireThreshold, metadata, firstRunAt);
    }

    NewTask withMisfireThreshold(Duration value) {
        return new NewTask(name, description, handler, interval, misfirePolicy, Optional.of(value), metadata, firstRunAt);
    }

    public NewTask withMetadata(Metadata value) {
        return new NewTask(name, description, handler, interval, misfirePolicy, misfireThreshold, value, firstRunAt);
    }

    private static void requireText(String value, String what, int maxLength) {
        if (value == null || value.isBlank() || value.length() > maxLength) {
            throw new IllegalArgumentException("a task " + what + " must be 1–" + maxLength + " characters, was: " + value);
        }
    }

    static void requirePositive(Duration value, String what) {
        if (value == null || value.toMillis() <= 0) {
            throw new IllegalArgumentException(what + " must be at least 1 ms, was " + value);
        }
    }
}
