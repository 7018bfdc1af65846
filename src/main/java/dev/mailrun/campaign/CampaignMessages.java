package dev.mailrun.campaign;

import dev.mailrun.campaign.content.Contents;
import dev.mailrun.campaign.content.MessageForm;
import dev.mailrun.campaign.content.OwnMessageComposer.Composition;
import dev.mailrun.campaign.content.TemplateStore;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.ContentPin;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.ContentPinTable;
import dev.mailrun.campaign.store.recipient.RecipientCounts;
import dev.mailrun.mail.template.MergeFields;
import dev.mailrun.mail.template.TemplateProblem;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;

/**
 * A campaign's own message written after its creation (docs/CONTENT.md, "A campaign's own message"):
 *
 * <ol>
 *   <li>only while what the campaign sends may change ({@link CampaignContent#requireMovable}: a draft,
 *       scheduled or paused campaign no run holds);</li>
 *   <li>the message is placed into its layout as at creation ({@link Contents#compose}), as the template
 *       named after the campaign ({@link MessageForm#templateName});</li>
 *   <li>the composed template must use only fields every recipient imported so far has, as an import
 *       into the campaign must bring every field its template uses;</li>
 *   <li>it is stored as that template's next version (or found unchanged) and the campaign is moved to
 *       it ({@link CampaignContent#move}), the move recorded with who wrote it.</li>
 * </ol>
 * Every problem of the message is reported at once, each under its field ({@link MessageForm#fieldOf});
 * nothing is stored while any is found. What was written is kept with the version it was composed into,
 * so that it can be read back ({@link #written}) and written again.
 */
public final class CampaignMessages {

    private final DataSource dataSource;
    private final Contents contents;
    private final CampaignContent content;
    private final CampaignTable campaigns = new CampaignTable();
    private final RecipientCounts recipients = new RecipientCounts();
    private final ContentPinTable pins = new ContentPinTable();

    CampaignMessages(DataSource dataSource, Contents contents, CampaignContent content) {
        this.dataSource = dataSource;
        this.contents = contents;
        this.content = content;
    }

    /**
     * {@code form} composed for the campaign {@code id}, as {@link #write} would store it; nothing is
     * stored. A preview renders it.
     *
     * @throws CampaignException when there is no such campaign
     * @throws InvalidFields every problem {@link #write} would refuse the message for
     */
    public Composition.Composed compose(long id, MessageForm form) throws SQLException {
        return compose(campaign(id), form);
    }

    /**
     * {@code form} composed for a campaign not created yet, to be named {@code campaignName}, as creating it
     * with its own message would store it; nothing is stored. A preview before creation renders it.
     *
     * @throws InvalidFields every problem of the message creation would refuse it for, each under its field
     */
    public Composition.Composed compose(String campaignName, MessageForm form) throws SQLException {
        String name = MessageForm.templateName(campaignName);
        Composition composition = contents.compose(name, form);
        if (composition instanceof Composition.Refused refused) {
            throw invalid(form, name, refused.problems());
        }
        return (Composition.Composed) composition;
    }

    private Composition.Composed compose(Campaign campaign, MessageForm form) throws SQLException {
        Composition.Composed composed = compose(campaign.name(), form);
        List<TemplateProblem> lacking = lackingFields(campaign.id(), composed);
        if (!lacking.isEmpty()) {
            throw invalid(form, MessageForm.templateName(campaign.name()), lacking);
        }
        return composed;
    }

    /**
     * Stores {@code form} as the next version of the template named after the campaign and moves the
     * campaign to it, by {@code by}.
     *
     * @return the campaign's new pin
     * @throws CampaignException when there is no such campaign, or what it sends may not change now
     * @throws InvalidFields every problem of the message, each under its field (subject, body, text, layout)
     */
    public ContentPin write(long id, MessageForm form, String by) throws SQLException {
        String who = CampaignContent.who(by);
        Campaign campaign = campaign(id);
        content.requireMovable(campaign);
        String name = MessageForm.templateName(campaign.name());
        TemplateStore.Saved saved = contents.store().save(compose(campaign, form).source(), who, Optional.of(form));
        int version;
        if (saved instanceof TemplateStore.Saved.NewVersion v) {
            version = v.version();
        } else if (saved instanceof TemplateStore.Saved.Unchanged u) {
            version = u.version();
        } else {
            // The composed template as a whole: larger than a stored template may be.
            throw invalid(form, name, ((TemplateStore.Saved.Refused) saved).problems());
        }
        return content.move(campaign, name, Optional.of(version), Optional.empty(), who);
    }

    /** What the message a campaign sends was written as. */
    public sealed interface Written {
        /** The campaign sends {@code pin}, composed from {@code form} as it was written. */
        record Kept(ContentPin pin, MessageForm form) implements Written {}

        /**
         * The campaign sends {@code pin}, a version of the template its own message is stored as, but nothing
         * written is kept for it: stored before messages were kept, or saved as a whole template.
         */
        record NotKept(ContentPin pin) implements Written {}

        /** The campaign sends no message of its own. */
        record None() implements Written {}
    }

    /**
     * What the message campaign {@code id} sends was written as: the version it pins, and the message kept
     * with that version.
     *
     * @throws CampaignException when there is no such campaign
     */
    public Written written(long id) throws SQLException {
        Campaign campaign = campaign(id);
        Optional<ContentPin> pin;
        try (Connection c = dataSource.getConnection()) {
            pin = pins.campaign(c, id, false).flatMap(p -> p.version().map(v -> new ContentPin(p.template(), v)));
        }
        if (pin.isEmpty()) {
            return new Written.None();
        }
        Optional<MessageForm> form = contents.store().message(pin.get().template(), pin.get().version());
        if (form.isPresent()) {
            return new Written.Kept(pin.get(), form.get());
        }
        return pin.get().template().equals(MessageForm.templateName(campaign.name())) ? new Written.NotKept(pin.get())
                : new Written.None();
    }

    private Campaign campaign(long id) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return campaigns.find(c, id).orElseThrow(() -> new CampaignException("no campaign with id " + id));
        }
    }

    /** The fields the composed template uses that not every recipient imported so far has; none without recipients. */
    private List<TemplateProblem> lackingFields(long id, Composition.Composed composed) throws SQLException {
        Optional<Set<String>> columns;
        try (Connection c = dataSource.getConnection()) {
            columns = recipients.commonFieldNames(c, id);
        }
        return columns.map(have -> composed.template().check(MergeFields.available(have))).orElse(List.of());
    }

    private static InvalidFields invalid(MessageForm form, String name, List<TemplateProblem> problems) {
        List<InvalidFields.Problem> named = new ArrayList<>();
        problems.forEach(p -> named.add(new InvalidFields.Problem(form.fieldOf(name, p), p.toString())));
        return new InvalidFields(named);
    }
}
