package dev.mailrun.campaign.send.scope;

import dev.mailrun.scheduler.Sleeper;
import java.time.Clock;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Where the sending task takes time from, so that tests move time instead of waiting for it. A
 * run reads instants from its {@code RunContext}'s clock (the scheduler's, which its deadline is
 * measured by); these serve what happens outside a run or between its instants.
 *
 * @param clock    instants outside a run (marking an abandoned run's rows unknown)
 * @param nanoTime a monotonic nano-time source: when the relay share is due for renewal
 * @param sleeper  waits: a run that joins other holders of its relay gives them one renewal period to slow down
 */
public record Timing(Clock clock, LongSupplier nanoTime, Sleeper sleeper) {

    public Timing {
        Objects.requireNonNull(clock, "clock must not be null");
        Objects.requireNonNull(nanoTime, "nanoTime must not be null");
        Objects.requireNonNull(sleeper, "sleeper must not be null");
    }
}
