package dev.mailrun.http.api;

import dev.mailrun.campaign.importing.ImportFileException;
import dev.mailrun.campaign.importing.ImportRefusedException;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.suppression.SuppressionFileException;

/** The operator API's refusals as problems: what each kind of exception means to a client. */
final class Failures {

    /** How a problem names an uploaded file. */
    static final String UPLOAD = "the upload: ";

    private Failures() {}

    static ApiException map(Exception e) {
        if (e instanceof InvalidFields f) {
            return ApiException.invalid(FieldNames.json(f.problems()));
        }
        if (e instanceof CampaignException c) {
            String m = c.getMessage();
            // "no campaign with id 7", "no template named x": the thing is not there; anything else is
            // a state the request does not fit (a campaign already running, one not paused).
            return m != null && m.startsWith("no ") ? ApiException.notFound(m) : ApiException.conflict(m);
        }
        // The file the importer read is the server's temporary copy of the upload: name the upload.
        if (e instanceof ImportFileException f) {
            return new ApiException(422, "Import refused", UPLOAD + f.reason());
        }
        if (e instanceof SuppressionFileException f) {
            return new ApiException(422, "Import refused", UPLOAD + f.reason());
        }
        if (e instanceof ImportRefusedException) {
            return new ApiException(422, "Import refused", e.getMessage());
        }
        if (e instanceof IllegalArgumentException || e instanceof IllegalStateException && e.getMessage() != null
                && e.getMessage().startsWith("missing")) {
            return ApiException.invalid("body", e.getMessage());
        }
        return new ApiException(500, "Server error", "the request failed; see the worker's log");
    }
}
