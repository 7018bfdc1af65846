package dev.mailrun.campaign.send.route.violation;

/**
 * Breaks the visibility rules on purpose, for SendVisibilityTest: a public type with a public method
 * that only its own package ({@link ItsOnlyUser}) uses. It lives in the test sources, so the rules
 * checked on the main classes never see it.
 */
public final class PublicForItsPackageOnly {

    PublicForItsPackageOnly() {
    }

    public int size() {
        return 1;
    }
}
