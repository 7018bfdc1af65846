package dev.mailrun.campaign.audience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import dev.mailrun.campaign.importing.AddressFilter;
import dev.mailrun.campaign.importing.ImportFileException;
import dev.mailrun.campaign.importing.ImportSettings;
import dev.mailrun.campaign.importing.RecipientRejectReason;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.campaign.model.SubscriberStatus;
import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.campaign.model.SubscriptionStatus;
import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.store.audience.SubscriptionTable;
import dev.mailrun.csv.RejectedRow;
import dev.mailrun.db.Transactions;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@link SubscriberImporter} on the real database: each mode, its report, its rejects. */
class SubscriberImporterTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.at("2026-11-24T10:00:00Z");
    private final AddressFilter roles = address -> address.localPart().equals("info")
            ? Optional.of(new AddressFilter.Rejection(RecipientRejectReason.ROLE_ADDRESS, "local part info names a role, not a person"))
            : Optional.empty();
    private final Lists lists = new Lists(db.dataSource(), clock);
    private final Subscribers subscribers = new Subscribers(db.dataSource(), clock, AddressFilter.none());
    private final SubscriberImporter importer = new SubscriberImporter(db.dataSource(), clock, roles, ImportSettings.defaults());

    @BeforeEach
    void empty() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM subscriber");
            s.execute("DELETE FROM subscriber_list");
            s.execute("DELETE FROM suppression");
        }
        lists.create(new Lists.NewList("news", Optional.empty(), ListVisibility.PUBLIC, ListOptIn.SINGLE));
        lists.create(new Lists.NewList("offers", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.DOUBLE));
    }

    private Path csv(String content) throws Exception {
        Path f = dir.resolve("people.csv");
        Files.writeString(f, content, StandardCharsets.UTF_8);
        return f;
    }

    private SubscriberImportReport run(String list, ImportMode mode, Path file) throws Exception {
        return importer.importCsv(list, mode, file, Optional.empty(), n -> {});
    }

    private void suppress(String key) throws Exception {
        Transactions.inTransaction(db.dataSource(), c -> new SuppressionTable().add(c,
                List.of(new SuppressionTable.Entry(key, SuppressionReason.MANUAL, "test")), clock.instant()));
    }

    private Subscriber subscriber(String email) throws Exception {
        return subscribers.get(email).orElseThrow().subscriber();
    }

    private Map<String, SubscriptionStatus> subscriptionsOf(String email) throws Exception {
        return subscribers.get(email).orElseThrow().subscriptions().stream()
                .collect(Collectors.toMap(SubscriptionTable.Stored::listName, SubscriptionTable.Stored::status));
    }

    @Test
    void add_mode_adds_and_subscribes_new_people_leaves_existing_ones_as_they_are_and_rejects_rows_as_the_recipient_import() throws Exception {
        subscribers.upsert(new SubscriberForm("old@example.com", Optional.of("Old Name"), Optional.empty(), List.of()),
                SubscriptionSource.OPERATOR);
        suppress("gone@example.com");
        SubscriberImportReport r = run("news", ImportMode.ADD, csv("""
                email,name,plan
                Ann@Example.com,Ann,pro
                old@example.com,New Name,basic
                ann@example.com,Ann again,pro
                not-an-address,X,pro
                Gone@example.com,Gone,pro
                info@example.com,Info,pro
                short@example.com
                bob@example.com,,free
                """));
        assertThat(r.rows()).isEqualTo(8);
        assertThat(r.imported()).isEqualTo(2);
        assertThat(r.subscribed()).isEqualTo(1);
        assertThat(r.rejected()).isEqualTo(5);
        assertThat(r.firstRejects()).extracting(RejectedRow::line, RejectedRow::reason).containsExactly(
                tuple(4L, RecipientRejectReason.DUPLICATE_IN_FILE), tuple(5L, RecipientRejectReason.INVALID_SYNTAX),
                tuple(6L, RecipientRejectReason.SUPPRESSED), tuple(7L, RecipientRejectReason.ROLE_ADDRESS),
                tuple(8L, RecipientRejectReason.WRONG_FIELD_COUNT));
        assertThat(r.firstRejects().get(0).detail()).isEqualTo("first at line 2");
        Subscriber ann = subscriber("ann@example.com");
        assertThat(ann.email()).isEqualTo("Ann@example.com");
        assertThat(ann.name()).contains("Ann");
        assertThat(ann.attributes().values()).isEqualTo(Map.of("plan", "pro"));
        assertThat(subscriptionsOf("ann@example.com")).isEqualTo(Map.of("news", SubscriptionStatus.CONFIRMED));
        assertThat(subscribers.get("ann@example.com").orElseThrow().history()).extracting(e -> e.kind() + ": " + e.detail().orElse(""))
                .containsExactly("subscribed: list 'news', confirmed, by import, line 2 of people.csv", "imported: line 2 of people.csv");
        Subscriber old = subscriber("old@example.com");
        assertThat(old.name()).as("add leaves an existing subscriber's data").contains("Old Name");
        assertThat(old.attributes().isEmpty()).isTrue();
        assertThat(subscriptionsOf("old@example.com")).isEqualTo(Map.of("news", SubscriptionStatus.CONFIRMED));
        assertThat(subscriber("bob@example.com").name()).isEmpty();
        assertThat(subscribers.get("gone@example.com")).isEmpty();
    }

    @Test
    void a_second_add_of_the_same_file_changes_nothing_and_a_double_opt_in_list_takes_people_unconfirmed() throws Exception {
        Path file = csv("email\na@example.com\nb@example.com\n");
        assertThat(run("offers", ImportMode.ADD, file).imported()).isEqualTo(2);
        SubscriberImportReport again = run("offers", ImportMode.ADD, file);
        assertThat(again.imported()).isZero();
        assertThat(again.unchanged()).isEqualTo(2);
        assertThat(again.rejected()).as("another import's stamp is no duplicate of this one").isZero();
        assertThat(subscriptionsOf("a@example.com")).isEqualTo(Map.of("offers", SubscriptionStatus.UNCONFIRMED));
    }

    @Test
    void a_repeat_of_an_address_from_an_earlier_batch_is_a_duplicate_naming_the_first_line_and_memory_keeps_no_addresses() throws Exception {
        Path f = dir.resolve("many.csv");
        int people = 2 * ImportBatch.MAX_ROWS + 200;
        try (BufferedWriter w = Files.newBufferedWriter(f)) {
            w.write("email\n");
            for (int i = 0; i < people; i++) {
                w.write("p" + i + "@example.com\n");
            }
            w.write("P0@example.com\n");   // a repeat of line 2, two batches later
            w.write("p0@example.com\n");   // a repeat of the repeat, in the same batch
        }
        List<Long> progress = new ArrayList<>();
        SubscriberImportReport r = importer.importCsv("news", ImportMode.ADD, f, Optional.empty(), progress::add);
        assertThat(r.imported()).isEqualTo(people);
        assertThat(r.firstRejects()).extracting(RejectedRow::line, RejectedRow::detail).containsExactly(
                tuple(people + 2L, "first at line 2"), tuple(people + 3L, "first at line 2"));
        assertThat(progress).as("after each full batch, and at the end")
                .containsExactly((long) ImportBatch.MAX_ROWS, 2L * ImportBatch.MAX_ROWS, people + 2L);
        assertThat(count("SELECT COUNT(*) FROM subscription")).isEqualTo(people);
    }

    @Test
    void update_mode_replaces_names_and_attributes_of_existing_subscribers_and_keeps_a_name_left_blank() throws Exception {
        run("news", ImportMode.ADD, csv("email,name,plan,seats\na@example.com,Ann,pro,3\nb@example.com,Bob,free,1\n"));
        clock.advance(java.time.Duration.ofMinutes(5));
        SubscriberImportReport r = run("offers", ImportMode.UPDATE, csv("email,name,plan\na@example.com,Ann Lee,team\nb@example.com,,pro\nc@example.com,Cy,free\n"));
        assertThat(r.updated()).isEqualTo(2);
        assertThat(r.imported()).isEqualTo(1);
        Subscriber a = subscriber("a@example.com");
        assertThat(a.name()).contains("Ann Lee");
        assertThat(a.attributes().values()).as("the file's attributes replace the stored ones").isEqualTo(Map.of("plan", "team"));
        assertThat(a.updatedAt()).isEqualTo(clock.instant());
        assertThat(subscriber("b@example.com").name()).contains("Bob");
        assertThat(subscriptionsOf("a@example.com")).isEqualTo(Map.of("news", SubscriptionStatus.CONFIRMED,
                "offers", SubscriptionStatus.UNCONFIRMED));
        assertThat(subscribers.get("a@example.com").orElseThrow().history().get(1).detail())
                .contains("name, attributes by import, line 2 of people.csv");
    }

    @Test
    void unsubscribe_mode_unsubscribes_from_the_list_only_and_records_unknown_addresses_unsubscribed() throws Exception {
        run("news", ImportMode.ADD, csv("email\na@example.com\nb@example.com\n"));
        run("offers", ImportMode.ADD, csv("email\na@example.com\n"));
        suppress("c@example.com");
        SubscriberImportReport r = run("news", ImportMode.UNSUBSCRIBE, csv("email\na@example.com\nc@example.com\n"));
        assertThat(r.unsubscribed()).isEqualTo(2);
        assertThat(r.rejected()).as("a suppressed address is unsubscribed too").isZero();
        assertThat(subscriptionsOf("a@example.com")).isEqualTo(Map.of("news", SubscriptionStatus.UNSUBSCRIBED,
                "offers", SubscriptionStatus.UNCONFIRMED));
        assertThat(subscriptionsOf("b@example.com")).isEqualTo(Map.of("news", SubscriptionStatus.CONFIRMED));
        assertThat(subscriptionsOf("c@example.com")).isEqualTo(Map.of("news", SubscriptionStatus.UNSUBSCRIBED));
        assertThat(run("news", ImportMode.UNSUBSCRIBE, csv("email\na@example.com\n")).unchanged()).isEqualTo(1);
        assertThat(run("news", ImportMode.ADD, csv("email\na@example.com\n")).unchanged()).as("adding leaves an unsubscribed one so")
                .isEqualTo(1);
        assertThat(subscriptionsOf("a@example.com")).containsEntry("news", SubscriptionStatus.UNSUBSCRIBED);
    }

    @Test
    void blocklist_mode_blocklists_unsubscribes_everywhere_and_adds_unknown_addresses_blocklisted() throws Exception {
        run("news", ImportMode.ADD, csv("email\na@example.com\n"));
        run("offers", ImportMode.ADD, csv("email\na@example.com\n"));
        subscribers.blocklist("b@example.com", SubscriptionSource.OPERATOR);
        SubscriberImportReport r = run("news", ImportMode.BLOCKLIST, csv("email\na@example.com\nb@example.com\ninfo@example.com\n"));
        assertThat(r.blocklisted()).as("a, and info: the role filter guards who is added, not who is blocklisted").isEqualTo(2);
        assertThat(r.unchanged()).isEqualTo(1);
        assertThat(subscriber("a@example.com").status()).isEqualTo(SubscriberStatus.BLOCKLISTED);
        assertThat(subscriptionsOf("a@example.com")).isEqualTo(Map.of("news", SubscriptionStatus.UNSUBSCRIBED,
                "offers", SubscriptionStatus.UNSUBSCRIBED));
        assertThat(subscriber("info@example.com").status()).isEqualTo(SubscriberStatus.BLOCKLISTED);
        assertThat(run("news", ImportMode.ADD, csv("email\na@example.com\n")).unchanged()).as("a blocklisted subscriber joins no list")
                .isEqualTo(1);
        assertThat(subscriptionsOf("a@example.com")).containsEntry("news", SubscriptionStatus.UNSUBSCRIBED);
    }

    @Test
    void an_unknown_list_a_file_of_too_many_attribute_columns_and_too_large_attributes_are_refused() throws Exception {
        Path ok = csv("email\na@example.com\n");
        assertThatThrownBy(() -> run("nope", ImportMode.ADD, ok)).isInstanceOf(InvalidFields.class).hasMessage("list: no list named 'nope'");
        String wide = "email," + IntStream.range(0, 65).mapToObj(i -> "c" + i).collect(Collectors.joining(",")) + "\n";
        assertThatThrownBy(() -> run("news", ImportMode.ADD, csv(wide))).isInstanceOf(ImportFileException.class)
                .hasMessageEndingWith("the header row has 65 attribute columns, more than the 64 a subscriber may have");
        SubscriberImportReport r = run("news", ImportMode.ADD, csv("email,bio\nbig@example.com," + "x".repeat(9000) + "\nok@example.com,short\n"));
        assertThat(r.imported()).isEqualTo(1);
        assertThat(r.rejectedByReason()).containsEntry(RecipientRejectReason.TOO_LARGE, 1L);
        assertThat(r.firstRejects().get(0).detail()).isEqualTo("the attributes take 9010 bytes as JSON, more than the 8192 a subscriber may have");
    }

    @Test
    void every_rejected_row_goes_to_the_rejects_file_when_asked() throws Exception {
        Path rejects = dir.resolve("rejects.csv");
        importer.importCsv("news", ImportMode.ADD, csv("email\nbad\na@example.com\na@example.com\n"), Optional.of(rejects), n -> {});
        assertThat(Files.readAllLines(rejects)).containsExactly("line,email,reason,detail",
                "2,bad,invalid syntax,expected local-part@domain", "4,a@example.com,duplicate in file,first at line 3");
    }

    private static long count(String sql) throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
