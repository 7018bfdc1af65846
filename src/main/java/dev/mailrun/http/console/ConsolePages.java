package dev.mailrun.http.console;

import dev.mailrun.campaign.model.ApiScope;
import java.util.ArrayList;
import java.util.List;

/**
 * The console's pages and actions, below {@code /console}: the catalogue, readable as a list. Every
 * GET only reads; every change is a POST, with the scope the same change needs in the API (saving a
 * template: {@code campaigns:write}, the scope that decides what campaigns send). A template's preview,
 * and a campaign's own message's, is a POST too, as its text is too large for a query; it changes
 * nothing and is not audited. The audience's pages are listed in {@link AudiencePages}.
 */
final class ConsolePages {

    private static final String ID = "/campaigns/(\\d{1,18})";
    private static final String TEMPLATE = "/templates/(" + TemplatesPage.NAME + ")";

    private ConsolePages() {}

    static List<ConsoleRoute> routes(ConsoleServices services, Views views) {
        CampaignsPage list = new CampaignsPage(services, views);
        CampaignPage detail = new CampaignPage(services, views);
        CampaignActions actions = new CampaignActions(services, views);
        CampaignContentPage content = new CampaignContentPage(services, views);
        CampaignMessagePage message = new CampaignMessagePage(services, views);
        SendTestPage sendTest = new SendTestPage(services, views);
        CampaignFiles files = new CampaignFiles(services);
        TemplatePreview preview = new TemplatePreview(services);
        NewCampaignPage create = new NewCampaignPage(services, views, preview);
        ImportPage imports = new ImportPage(services, views);
        SuppressionsPage suppressions = new SuppressionsPage(services, views);
        AuditPage audit = new AuditPage(services, views);
        ErasePage erase = new ErasePage(services, views);
        EventsPage events = new EventsPage(services, views);
        TemplatesPage templates = new TemplatesPage(services, views);
        TemplateEditor editor = new TemplateEditor(services, views);
        TemplateHistory history = new TemplateHistory(services, views);
        int templateForm = TemplateEditor.maxFormBytes(services.content().templates());
        int messageForm = CampaignMessagePage.maxFormBytes(services.content().templates());
        List<ConsoleRoute> routes = new ArrayList<>(List.of(
                ConsoleRoute.get("/campaigns", ApiScope.CAMPAIGNS_READ, list::show),
                ConsoleRoute.get("/campaigns/new", ApiScope.CAMPAIGNS_WRITE, create::show),
                ConsoleRoute.post("/campaigns/new", ApiScope.CAMPAIGNS_WRITE, "campaign.create", messageForm, create::create),
                ConsoleRoute.reading("/campaigns/new/preview", ApiScope.TEMPLATES_READ, messageForm, create::previewMessage),
                ConsoleRoute.get("/campaigns/new/frame", ApiScope.TEMPLATES_READ, create::messageFrame),
                ConsoleRoute.get(TEMPLATE + "/preview", ApiScope.TEMPLATES_READ, preview::frame),
                ConsoleRoute.get("/templates", ApiScope.TEMPLATES_READ, templates::show),
                ConsoleRoute.get(TEMPLATE, ApiScope.TEMPLATES_READ, editor::show),
                ConsoleRoute.reading(TEMPLATE + "/draft", ApiScope.TEMPLATES_READ, templateForm, editor::preview),
                ConsoleRoute.get(TEMPLATE + "/draft/frame", ApiScope.TEMPLATES_READ, editor::frame),
                ConsoleRoute.post(TEMPLATE + "/save", ApiScope.TEMPLATES_WRITE, "template.save", templateForm, editor::save),
                ConsoleRoute.get(TEMPLATE + "/diff", ApiScope.TEMPLATES_READ, history::diff),
                ConsoleRoute.get(ID, ApiScope.CAMPAIGNS_READ, detail::show),
                ConsoleRoute.get(ID + "/export", ApiScope.CAMPAIGNS_READ, files::export),
                ConsoleRoute.get(ID + "/report", ApiScope.CAMPAIGNS_READ, files::report),
                ConsoleRoute.get(ID + "/cancel", ApiScope.CAMPAIGNS_WRITE, r -> actions.ask(r, "cancel")),
                ConsoleRoute.get(ID + "/pause", ApiScope.CAMPAIGNS_WRITE, r -> actions.ask(r, "pause")),
                ConsoleRoute.get(ID + "/requeue-failed", ApiScope.CAMPAIGNS_WRITE, r -> actions.ask(r, "requeue-failed")),
                ConsoleRoute.get(ID + "/content", ApiScope.CAMPAIGNS_WRITE, content::show),
                ConsoleRoute.get(ID + "/message", ApiScope.CAMPAIGNS_WRITE, message::show),
                ConsoleRoute.reading(ID + "/message/preview", ApiScope.TEMPLATES_READ, messageForm, message::preview),
                ConsoleRoute.get(ID + "/message/frame", ApiScope.TEMPLATES_READ, message::frame),
                ConsoleRoute.get(ID + "/send-test", ApiScope.CAMPAIGNS_WRITE, sendTest::show),
                ConsoleRoute.get(ID + "/import", ApiScope.RECIPIENTS_WRITE, imports::show),
                ConsoleRoute.post(ID + "/import", ApiScope.RECIPIENTS_WRITE, "recipients.import", imports::upload),
                ConsoleRoute.get(ID + "/import/rejects", ApiScope.RECIPIENTS_WRITE, imports::rejects),
                ConsoleRoute.get("/suppressions", ApiScope.SUPPRESSIONS_READ, suppressions::show),
                ConsoleRoute.get("/audit", ApiScope.ADMIN, audit::show),
                ConsoleRoute.get("/erase", ApiScope.ADMIN, erase::show),
                ConsoleRoute.post("/erase", ApiScope.ADMIN, "subscriber.erase", erase::erase),
                ConsoleRoute.get("/events", ApiScope.EVENTS_READ, events::show),
                ConsoleRoute.post("/events/replay", ApiScope.EVENTS_WRITE, "events.replay", events::replay),
                ConsoleRoute.post("/events/discard", ApiScope.EVENTS_WRITE, "events.discard", events::discard),
                ConsoleRoute.post("/events/enable", ApiScope.EVENTS_WRITE, "events.enable", events::enable),
                ConsoleRoute.post("/suppressions/add", ApiScope.SUPPRESSIONS_WRITE, "suppression.add", suppressions::add),
                ConsoleRoute.post("/suppressions/remove", ApiScope.SUPPRESSIONS_WRITE, "suppression.remove", suppressions::remove),
                ConsoleRoute.post("/suppressions/import", ApiScope.SUPPRESSIONS_WRITE, "suppression.import", suppressions::importCsv),
                ConsoleRoute.post(ID + "/start", ApiScope.CAMPAIGNS_WRITE, "campaign.start", actions::start),
                ConsoleRoute.post(ID + "/pause", ApiScope.CAMPAIGNS_WRITE, "campaign.pause", actions::pause),
                ConsoleRoute.post(ID + "/resume", ApiScope.CAMPAIGNS_WRITE, "campaign.resume", actions::resume),
                ConsoleRoute.post(ID + "/cancel", ApiScope.CAMPAIGNS_WRITE, "campaign.cancel", actions::cancel),
                ConsoleRoute.post(ID + "/requeue-unknown", ApiScope.CAMPAIGNS_WRITE, "campaign.requeue-unknown",
                        actions::requeueUnknown),
                ConsoleRoute.post(ID + "/requeue-failed", ApiScope.CAMPAIGNS_WRITE, "campaign.requeue-failed",
                        actions::requeueFailed),
                ConsoleRoute.post(ID + "/content", ApiScope.CAMPAIGNS_WRITE, "campaign.content", content::move),
                ConsoleRoute.post(ID + "/message", ApiScope.CAMPAIGNS_WRITE, "campaign.message", messageForm, message::save),
                ConsoleRoute.post(ID + "/clone", ApiScope.CAMPAIGNS_WRITE, "campaign.clone", actions::cloneOf),
                ConsoleRoute.post(ID + "/web-version", ApiScope.CAMPAIGNS_WRITE, "campaign.web-version", detail::setWebVersion),
                ConsoleRoute.post(ID + "/send-test", ApiScope.CAMPAIGNS_WRITE, "campaign.send-test", sendTest::send)));
        routes.addAll(AudiencePages.routes(services, views));
        return List.copyOf(routes);
    }
}
