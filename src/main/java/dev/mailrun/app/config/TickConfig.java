package dev.mailrun.app.config;

import java.time.Duration;

public record TickConfig(Duration interval, Duration safetyMargin, Duration shutdownGrace) {

    public TickConfig {
        if (safetyMargin.compareTo(interval) >= 0) {
            throw ConfigException.invalid("tick.safety-margin", "must be shorter than tick.interval (" + interval + ")");
        }
    }
}
