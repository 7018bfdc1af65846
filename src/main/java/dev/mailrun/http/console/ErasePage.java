package dev.mailrun.http.console;

import dev.mailrun.campaign.audience.Erasure;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.store.ErasureAuditTable;
import java.util.List;
import java.util.Map;

/**
 * {@code /console/erase}: erase a person (docs/ERASURE.md), as {@code subscribers erase} does, after
 * typing the address twice; the newest erasures (when, which way, who — never an address). Admin scope:
 * it cannot be undone. Audited under {@code console:<token name>}.
 */
final class ErasePage {

    private static final int NEWEST = 50;

    private final ConsoleServices services;
    private final Views views;

    ErasePage(ConsoleServices services, Views views) {
        this.services = services;
        this.views = views;
    }

    Answer show(ConsoleRequest r) throws Exception {
        List<Map<String, Object>> rows = services.api().erasure().recent(NEWEST).stream().map(ErasePage::row).toList();
        return Answer.ok(views.render("erase", r.session(), Map.of("erasures", rows)));
    }

    Answer erase(ConsoleRequest r) throws Exception {
        String address = r.field("address").orElse("").strip();
        if (address.length() > EmailAddress.MAX_ADDRESS_OCTETS || !(EmailAddress.check(address) instanceof EmailAddress.Valid)) {
            throw new Refusal("/erase", "Not an email address: enter one such as reader@example.com.");
        }
        if (!address.equalsIgnoreCase(r.field("again").orElse("").strip())) {
            throw new Refusal("/erase", "The two addresses differ: type the same address twice to erase it.");
        }
        Erasure.Erased erased = services.api().erasure().erase(address, Erasure.Via.CONSOLE, "console:" + r.session().caller().name());
        r.session().flash(false, "Erased" + erased.subscriberId().map(id -> " subscriber " + id).orElse(" an address that was no subscriber")
                + ": " + erased.recipients() + " recipient row(s) made anonymous, " + erased.tracking() + " open(s) and click(s) deleted.");
        return Answer.redirect(ConsoleHandler.PREFIX + "/erase");
    }

    private static Map<String, Object> row(ErasureAuditTable.Entry e) {
        return Map.of("at", e.at().toString(), "via", e.via(), "actor", e.actor(),
                "subscriber", e.subscriberId().map(String::valueOf).orElse("-"), "recipients", e.recipients(), "tracking", e.tracking());
    }
}
