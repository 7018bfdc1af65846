package dev.mailrun.app.config;

import dev.mailrun.campaign.model.DomainGroup;

/**
 * Checks every key's value by its kind once the configuration is merged, before anything reads it:
 * a key that only some settings read (bounce.imap.tls without a bounce mailbox, a provider's keys
 * with the provider off) is as wrong at every start as the keys every command reads, so a typo
 * cannot pass {@code db status} and fail the worker later. The kinds:
 * <ul>
 *   <li>a key with a {@link Range}: a whole number, a number, a duration or a rate within it;</li>
 *   <li>a key whose default is {@code true} or {@code false}: exactly one of those, in any case;</li>
 *   <li>a key with named values ({@link ConfigKeys#choiceOf}): one of them, in any case.</li>
 * </ul>
 * An empty value is left to the reader of the key: for most it means "none", for some it is
 * required only with other settings. What a value means beyond its kind (a URL, an address, two keys
 * together) is checked where it is read.
 */
final class ConfigValues {

    private ConfigValues() {}

    static void checkEvery(RawConfig raw) {
        for (String name : raw.keys().stream().sorted().toList()) {
            ConfigKey key = ConfigKeys.find(name).orElseThrow(() -> new IllegalStateException("no key " + name));
            if (raw.string(name).isEmpty()) {
                continue;
            }
            if (key.range().isPresent()) {
                checkRange(raw, name, key.range().get());
            } else if (ConfigKeys.isFlag(key)) {
                raw.bool(name);
            } else {
                ConfigKeys.choiceOf(name).ifPresent(type -> choice(raw, name, type));
            }
        }
    }

    private static void checkRange(RawConfig raw, String name, Range range) {
        if (range instanceof Range.Whole) {
            raw.integer(name);
        } else if (range instanceof Range.Decimal) {
            raw.decimal(name);
        } else if (range instanceof Range.Span) {
            raw.duration(name);
        } else {
            try {
                DomainGroup.parseRate(raw.string(name));
            } catch (IllegalArgumentException e) {
                throw ConfigException.invalid(name, e.getMessage());
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void choice(RawConfig raw, String name, Class<? extends Enum<?>> type) {
        raw.choice(name, (Class) type);
    }
}
