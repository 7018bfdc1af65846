package dev.mailrun.http.api;

import dev.mailrun.campaign.CampaignMessages;
import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.content.OwnMessage;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.ContentPin;
import dev.mailrun.campaign.store.ContentPinTable.Change;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a campaign sends, as {@code campaign content} and {@code campaign clone}: the stored template
 * versions it pins with every pin and move, a move to another version, its own message written, and a
 * new draft like it.
 */
final class CampaignContentApi {

    /** A move: the template, its version (the latest when absent), the variant whose own template moves. */
    record MoveBody(String template, Integer version, String variant) {}

    /** A clone's name; absent: the original's with " (copy)". */
    record CloneBody(String name) {}

    private final Campaigns campaigns;

    CampaignContentApi(ApiServices services) {
        this.campaigns = services.campaigns();
    }

    List<Operation> operations() {
        return List.of(
                Operation.read("/campaigns/{id}/content", ApiScope.CAMPAIGNS_READ, r -> ApiResponse.json(200, content(r.id("id")))),
                Operation.write("PUT", "/campaigns/{id}/content", ApiScope.CAMPAIGNS_WRITE, Operation.Body.JSON, "campaign.content",
                        this::move),
                Operation.read("/campaigns/{id}/message", ApiScope.CAMPAIGNS_READ, this::written),
                Operation.write("PUT", "/campaigns/{id}/message", ApiScope.CAMPAIGNS_WRITE, Operation.Body.JSON, "campaign.message",
                        this::message),
                Operation.write("POST", "/campaigns/{id}/clone", ApiScope.CAMPAIGNS_WRITE, Operation.Body.JSON, "campaign.clone",
                        this::cloneOf));
    }

    /** Writes a draft, scheduled or paused campaign's own message ({@link OwnMessages#write}); the content as moved. */
    private ApiResponse message(ApiRequest r) throws Exception {
        long id = r.id("id");
        OwnMessages.write(campaigns, id, r.json(CampaignsApi.MessageBody.class), TemplatesApi.by(r));
        return ApiResponse.json(200, content(id));
    }

    /** The campaign's own message as it was written, with the version it was composed into; 404 when it has none kept. */
    private ApiResponse written(ApiRequest r) throws Exception {
        long id = r.id("id");
        CampaignMessages.Written written = campaigns.messages().written(id);
        if (written instanceof CampaignMessages.Written.NotKept n) {
            throw ApiException.notFound("campaign " + id + " sends " + n.pin() + ", whose message as written was not kept "
                    + "(stored before messages were kept, or saved as a whole template)");
        }
        if (!(written instanceof CampaignMessages.Written.Kept kept)) {
            throw ApiException.notFound("campaign " + id + " sends no message of its own");
        }
        OwnMessage m = kept.form().message();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", id);
        body.put("template", kept.pin().template());
        body.put("version", kept.pin().version());
        body.put("layout", kept.form().layout());
        body.put("subject", m.subject());
        body.put("format", m.format().word());
        body.put("body", m.body());
        body.put("text", m.text().orElse(null));
        return ApiResponse.json(200, body);
    }

    /** Moves a draft, scheduled or paused campaign (or a variant's own template) to another stored version. */
    private ApiResponse move(ApiRequest r) throws Exception {
        long id = r.id("id");
        MoveBody b = r.json(MoveBody.class);
        String template = Strings.required("template", b.template(), 64);
        if (b.version() != null && b.version() < 1) {
            throw ApiException.invalid("version", "versions start at 1, got " + b.version());
        }
        Optional<String> variant = Strings.optional("variant", b.variant(), 20);
        campaigns.moveContent(id, template, Optional.ofNullable(b.version()), variant, TemplatesApi.by(r));
        return ApiResponse.json(200, content(id));
    }

    private ApiResponse cloneOf(ApiRequest r) throws Exception {
        long id = r.id("id");
        Optional<String> name = Strings.optional("name", r.json(CloneBody.class).name(), 200);
        long clone = campaigns.cloneOf(id, name);
        Campaign created = campaigns.get(clone);
        return ApiResponse.json(201, CampaignsApi.item(created, campaigns)).header("Location", ApiHandler.PREFIX + "/campaigns/" + clone)
                .header("ETag", CampaignsApi.etag(created));
    }

    /**
     * The campaign's pins and their history. Every pin and move is a change in the history, so the pin
     * in force is the last change of the campaign's own template and of each variant's; a campaign
     * created before templates were stored has none until its first run (version null).
     */
    private Map<String, Object> content(long id) throws Exception {
        Campaign campaign = campaigns.get(id);
        List<Change> history = campaigns.contentHistory(id);
        Map<Optional<String>, ContentPin> pins = new LinkedHashMap<>();
        history.forEach(c -> pins.put(c.variant(), new ContentPin(c.template(), c.to())));
        Optional<ContentPin> own = Optional.ofNullable(pins.remove(Optional.<String>empty()));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", id);
        body.put("template", own.map(ContentPin::template).orElse(campaign.template()));
        body.put("version", own.map(ContentPin::version).orElse(null));
        body.put("variants", pins.entrySet().stream().map(e -> {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("variant", e.getKey().orElseThrow());
            v.put("template", e.getValue().template());
            v.put("version", e.getValue().version());
            return v;
        }).toList());
        body.put("history", history.stream().map(c -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("variant", c.variant().orElse(null));
            m.put("template", c.template());
            m.put("from_version", c.from().orElse(null));
            m.put("to_version", c.to());
            m.put("changed_by", c.by());
            m.put("changed_at", c.at().toString());
            return m;
        }).toList());
        return body;
    }
}
