package dev.mailrun.campaign.importing;

/**
 * Told about every row an import accepts or rejects, as it happens (metrics count them). Called from
 * the importer's threads; an implementation must be quick and must not throw.
 */
public interface ImportListener {

    ImportListener NONE = new ImportListener() {
        @Override
        public void accepted(long rows) {}

        @Override
        public void rejected(RecipientRejectReason reason) {}
    };

    /** {@code rows} rows went into the campaign (one committed batch). */
    void accepted(long rows);

    /** One row was rejected, for {@code reason}. */
    void rejected(RecipientRejectReason reason);
}
