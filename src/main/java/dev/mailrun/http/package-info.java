/**
 * The HTTP adapters, one package per job, on one Jetty server (docs/HTTP.md):
 * <ul>
 *   <li>{@code server}: the server itself — listeners, limits, graceful stop, bearer tokens, body
 *       reading, trusted proxies, the error pages and the handlers the others share; it knows none of
 *       the routes it serves, which the wiring hands it;</li>
 *   <li>{@code endpoint}: the public listener's routes — one-click unsubscribe, tracking, the email
 *       providers' webhooks;</li>
 *   <li>{@code status}: the admin listener's read-only routes — the status page and its charts,
 *       {@code /status.json}, {@code /metrics}, the health probes;</li>
 *   <li>{@code api}: the HTTP API under {@code /api/v1};</li>
 *   <li>{@code console}: the operator console under {@code /console}, over the API's services, showing
 *       the status page's charts.</li>
 * </ul>
 * Each uses {@code server} and none uses another, except the console ({@code api}, {@code status}).
 */
package dev.mailrun.http;
