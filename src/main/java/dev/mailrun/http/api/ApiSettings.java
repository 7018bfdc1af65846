package dev.mailrun.http.api;

/**
 * The API's limits ({@code api.*}).
 *
 * @param rate           requests per second each token may make, on average
 * @param burst          requests a token may make at once after a quiet spell
 * @param maxBodyBytes   largest JSON request body; larger: 413
 * @param maxUploadBytes largest CSV upload (streamed to a temporary file, never held in memory); larger: 413
 */
public record ApiSettings(double rate, int burst, int maxBodyBytes, long maxUploadBytes) {

    public static final ApiSettings DEFAULTS = new ApiSettings(20, 40, 16 * 1024 * 1024, 1024L * 1024 * 1024);

    public ApiSettings {
        if (!(rate > 0)) {
            throw new IllegalArgumentException("rate must be above 0, got " + rate);
        }
        if (burst < 1) {
            throw new IllegalArgumentException("burst must be at least 1, got " + burst);
        }
        if (maxBodyBytes < 1024) {
            throw new IllegalArgumentException("maxBodyBytes must be at least 1024, got " + maxBodyBytes);
        }
        if (maxUploadBytes < 1024) {
            throw new IllegalArgumentException("maxUploadBytes must be at least 1024, got " + maxUploadBytes);
        }
    }
}
