package dev.mailrun.campaign.importing;

import dev.mailrun.campaign.model.EmailAddress;
import java.util.Optional;

/** An optional extra check at import (disposable domains, role addresses). */
@FunctionalInterface
public interface AddressFilter {

    record Rejection(RecipientRejectReason reason, String detail) {}

    Optional<Rejection> check(EmailAddress address);

    static AddressFilter none() {
        return a -> Optional.empty();
    }
}
