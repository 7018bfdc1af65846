package dev.mailrun.csv;

import java.util.Locale;

/**
 * Why a row of an imported CSV file was not taken. Each import has its own enum of reasons (a
 * recipient can be already in the campaign, a suppression cannot); all write a reason the same way.
 */
public interface RejectReason {

    /** The constant's name; an enum implements this as it is. */
    String name();

    /** The reason as the summary and the rejects file write it: lower case, words apart ("duplicate in file"). */
    default String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
}
