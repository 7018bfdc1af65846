package dev.mailrun.app.config;

public record LogConfig(Format format, Level level) {

    public enum Format { TEXT, JSON }

    public enum Level { TRACE, DEBUG, INFO, WARN, ERROR }
}
