package dev.mailrun.campaign.audience.signup;

import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.store.audience.ConsentTable;
import dev.mailrun.campaign.store.audience.PublicListTable;
import dev.mailrun.campaign.store.audience.SubscriberTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The operator's side of consent: a subscriber's consent per subscription (the export), and a list's
 * language for its sign-up pages and messages.
 */
public final class ConsentRecords {

    /** The languages a list's pages and messages come in. */
    public static final List<String> LANGUAGES = SignupTexts.LANGUAGES;

    private final DataSource dataSource;
    private final SubscriberTable subscribers = new SubscriberTable();
    private final ConsentTable consents = new ConsentTable();
    private final PublicListTable lists = new PublicListTable();

    public ConsentRecords(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Every subscription of the subscriber with its consent; empty when there is no such subscriber.
     *
     * @throws InvalidFields naming {@code email}
     */
    public Optional<List<ConsentTable.Exported>> export(String email) throws SQLException {
        EmailAddress.Check check = EmailAddress.check(email == null ? "" : email);
        if (check instanceof EmailAddress.Invalid invalid) {
            throw InvalidFields.of("email", invalid.reason());
        }
        String key = ((EmailAddress.Valid) check).address().suppressionKey();
        try (Connection c = dataSource.getConnection()) {
            Optional<SubscriberTable.Stored> s = subscribers.find(c, key);
            return s.isEmpty() ? Optional.empty() : Optional.of(consents.export(c, s.get().id()));
        }
    }

    /**
     * Sets the list's language; empty: the configured {@code signup.language}.
     *
     * @throws InvalidFields naming {@code language} (not one shipped) or {@code list} (no such list)
     */
    public void language(String list, Optional<String> language) throws SQLException {
        if (language.isPresent() && !LANGUAGES.contains(language.get())) {
            throw InvalidFields.of("language", "must be one of " + LANGUAGES + ", got '" + language.get() + "'");
        }
        try (Connection c = dataSource.getConnection()) {
            if (!lists.setLanguage(c, list.strip(), language)) {
                throw InvalidFields.of("list", "no list named '" + list.strip() + "'");
            }
        }
    }
}
