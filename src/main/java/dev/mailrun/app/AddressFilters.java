package dev.mailrun.app;

import dev.mailrun.app.config.ImportConfig;
import dev.mailrun.campaign.hygiene.AddressHygiene;
import dev.mailrun.campaign.importing.AddressFilter;
import dev.mailrun.campaign.importing.RecipientRejectReason;

/**
 * The address hygiene an import applies ({@code import.reject-disposable}, {@code import.reject-role}),
 * as the filter the recipient import, the subscriber import and {@code subscribers add} share.
 */
final class AddressFilters {

    private AddressFilters() {
    }

    static AddressFilter from(ImportConfig c) {
        if (!c.rejectDisposable() && !c.rejectRole()) {
            return AddressFilter.none();
        }
        AddressHygiene hygiene = AddressHygiene.withBundledLists(c.rejectDisposable(), c.rejectRole(), c.disposableList());
        // The detail says what matched: the reason's label already says which rule.
        return address -> hygiene.rejectReason(address).map(reason -> AddressHygiene.DISPOSABLE.equals(reason)
                ? new AddressFilter.Rejection(RecipientRejectReason.DISPOSABLE_DOMAIN, "domain " + address.domain() + " is on the disposable-mail list")
                : new AddressFilter.Rejection(RecipientRejectReason.ROLE_ADDRESS, "local part " + address.localPart() + " names a role, not a person"));
    }
}
