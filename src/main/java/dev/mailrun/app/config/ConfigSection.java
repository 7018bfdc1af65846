package dev.mailrun.app.config;

import java.util.List;

/**
 * A group of keys as docs/CONFIGURATION.md and {@code mailrun.properties.example} show them: a
 * title, an optional introduction (empty: none) and the keys in order.
 */
record ConfigSection(String title, String intro, List<ConfigKey> keys) {}
