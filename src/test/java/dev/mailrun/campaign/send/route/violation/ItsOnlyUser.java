package dev.mailrun.campaign.send.route.violation;

/** The one user of {@link PublicForItsPackageOnly}, in its package, for SendVisibilityTest. */
final class ItsOnlyUser {

    private ItsOnlyUser() {
    }

    static int size() {
        return new PublicForItsPackageOnly().size();
    }
}
