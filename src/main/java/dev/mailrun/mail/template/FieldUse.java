package dev.mailrun.mail.template;

/**
 * One reference to a merge field in one file.
 *
 * @param optional true when the template copes with the field being absent: {@code x | default(...)},
 *                 {@code x is defined}, or a use guarded by {@code {% if x is defined %}}
 */
record FieldUse(String name, int line, boolean optional) {
}
