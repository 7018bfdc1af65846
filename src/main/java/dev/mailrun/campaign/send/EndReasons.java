package dev.mailrun.campaign.send;

/** End reasons of a sending run that the sending task itself names, as its run summary records them. */
public final class EndReasons {

    /** A run that found the daily cap of every relay of its route used up. */
    public static final String DAILY_CAP = "daily_cap";

    private EndReasons() {
    }
}
