package dev.mailrun.testing;

import dev.mailrun.campaign.model.DomainGroups;
import dev.mailrun.campaign.send.policy.DailyCap;
import dev.mailrun.campaign.send.scope.FailureRule;
import dev.mailrun.campaign.send.scope.FlushCadence;
import dev.mailrun.campaign.send.scope.HardBounceRule;
import dev.mailrun.campaign.send.scope.SendSettings;
import java.time.Duration;

/**
 * {@link SendSettings} for tests: the shipped defaults ({@code send.*} and {@code bounce.*} as in
 * mailrun.properties.example, no daily cap, no domain groups) with the few values a test changes.
 */
public final class SendSettingsFixtures {

    private SendSettingsFixtures() {
    }

    /** The defaults. */
    public static SendSettings defaults() {
        return builder().build();
    }

    /** The defaults, sending through {@code relay} at {@code relayRate} per second (0: no limit). */
    public static OneRelaySettings defaults(String relay, double relayRate) {
        return builder().through(relay, relayRate);
    }

    /** The defaults, to change before {@link Builder#build()} or {@link Builder#through}. */
    public static Builder builder() {
        return new Builder();
    }

    /** Collects the values; {@link #build()} validates them as the configuration does. */
    public static final class Builder {

        private int batchMax = 500;
        private int maxAttempts = 5;
        private Duration retryBase = Duration.ofMinutes(5);
        private double pauseOnFailureRate = 0.10;
        private int failureWindow = 200;
        private DailyCap dailyCap = DailyCap.NONE;
        private DomainGroups domainGroups = DomainGroups.NONE;

        private Builder() {
        }

        public Builder batchMax(int value) {
            batchMax = value;
            return this;
        }

        /** Pause a campaign when {@code rate} of the last {@code window} attempts failed. */
        public Builder failureRule(double rate, int window) {
            pauseOnFailureRate = rate;
            failureWindow = window;
            return this;
        }

        public Builder retries(int attempts, Duration base) {
            maxAttempts = attempts;
            retryBase = base;
            return this;
        }

        public Builder domainGroups(DomainGroups value) {
            domainGroups = value;
            return this;
        }

        public Builder dailyCap(DailyCap value) {
            dailyCap = value;
            return this;
        }

        public SendSettings build() {
            return new SendSettings(batchMax, maxAttempts, retryBase,
                    new FailureRule(pauseOnFailureRate, failureWindow), FlushCadence.DEFAULT, SendSettings.BATCH_OVERHEAD,
                    new HardBounceRule(0.05, 100), dailyCap, domainGroups);
        }

        /** These settings, sending through {@code relay} at {@code relayRate} per second (0: no limit). */
        public OneRelaySettings through(String relay, double relayRate) {
            return new OneRelaySettings(build(), relay, relayRate);
        }
    }
}
