package dev.mailrun.metrics;

import dev.mailrun.campaign.importing.ImportListener;
import dev.mailrun.campaign.importing.RecipientRejectReason;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** Import rows accepted and rejected. */
final class ImportMeters implements ImportListener {

    private final Counter accepted;
    private final Counter rejected;

    ImportMeters(MeterRegistry registry) {
        accepted = rows(registry, "accepted");
        rejected = rows(registry, "rejected");
    }

    private static Counter rows(MeterRegistry registry, String result) {
        return Counter.builder("mailrun.import.rows").description("Rows of recipient imports by result")
                .tag("result", result).register(registry);
    }

    @Override
    public void accepted(long rows) {
        accepted.increment(rows);
    }

    @Override
    public void rejected(RecipientRejectReason reason) {
        rejected.increment();
    }
}
