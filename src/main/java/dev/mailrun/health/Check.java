package dev.mailrun.health;

/** One named check of a probe and what it found; {@code detail} is for the operator, one line. */
public record Check(String name, boolean up, String detail) {

    static Check up(String name, String detail) {
        return new Check(name, true, detail);
    }

    static Check down(String name, String detail) {
        return new Check(name, false, detail);
    }
}
