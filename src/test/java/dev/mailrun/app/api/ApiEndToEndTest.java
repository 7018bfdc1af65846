package dev.mailrun.app.api;

import static dev.mailrun.app.api.ApiHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import jakarta.mail.Address;
import jakarta.mail.Message;
import jakarta.mail.internet.MimeMessage;
import java.io.BufferedWriter;
import java.io.StringReader;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole campaign driven through the API alone, against a real SMTP server (GreenMail): create,
 * upload 5,000 recipients as CSV (with invalid rows), upload it again (same key: the first answer;
 * another key: everyone already there), start, watch the status until it is complete, export, and
 * every valid recipient has exactly one message. The worker's ticks run on a test clock.
 */
class ApiEndToEndTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private static final int VALID = 5_000;

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-21T10:00:00Z"), Duration.ofMillis(1));

    @Test
    void a_campaign_runs_from_creation_to_export_through_the_api_alone_and_each_valid_recipient_gets_one_message() throws Exception {
        Map<String, String> env = WorkerEnv.of(db, greenMail.getSmtp().getPort());
        try (ApiHarness api = new ApiHarness(env, clock); Scheduler scheduler = api.services.scheduler()) {
            String token = api.token("crm", ApiScope.CAMPAIGNS_READ, ApiScope.CAMPAIGNS_WRITE, ApiScope.RECIPIENTS_WRITE);

            HttpResponse<String> created = api.post(token, "/api/v1/campaigns",
                    "{\"name\":\"Winter news\",\"template\":\"newsletter\",\"from\":\"news@sender.example\",\"from_name\":\"Sender\"}",
                    "Idempotency-Key", "create-winter");
            assertThat(created.statusCode()).isEqualTo(201);
            String id = json(created).get("id").asText();

            Path csv = dir.resolve("list.csv");
            try (BufferedWriter w = Files.newBufferedWriter(csv)) {
                w.write("email,name,company\n");
                for (int i = 0; i < VALID; i++) {
                    w.write("reader" + i + "@list.example,Reader " + i + ",ACME\n");
                    if (i % 500 == 0) {
                        w.write("not-an-address-" + i + ",Broken,ACME\n");
                        w.write("READER" + i + "@list.example,Again,ACME\n");
                    }
                }
            }
            String path = "/api/v1/campaigns/" + id + "/recipients/import";
            HttpResponse<String> first = api.upload(token, path, csv, "Idempotency-Key", "upload-winter-1");
            JsonNode report = json(first);
            assertThat(report.get("imported").asLong()).isEqualTo(VALID);
            assertThat(report.get("rejected").asLong()).isEqualTo(20);
            assertThat(report.get("duplicates").asLong()).isEqualTo(10);
            assertThat(report.get("rejected_by_reason").get("invalid syntax").asLong()).isEqualTo(10);
            assertThat(report.get("first_rejects").get(0).get("line").asLong()).isEqualTo(3);

            HttpResponse<String> retried = api.upload(token, path, csv, "Idempotency-Key", "upload-winter-1");
            assertThat(retried.body()).isEqualTo(first.body());
            assertThat(retried.headers().firstValue("Idempotent-Replayed")).hasValue("true");
            JsonNode again = json(api.upload(token, path, csv, "Idempotency-Key", "upload-winter-2"));
            assertThat(again.get("imported").asLong()).as("a retry under another key imports nobody twice").isZero();
            assertThat(json(api.get(token, "/api/v1/campaigns/" + id)).get("report").get("counts").get("total").asLong())
                    .isEqualTo(VALID);

            HttpResponse<String> started = api.post(token, "/api/v1/campaigns/" + id + "/start", null, "Idempotency-Key", "start-winter");
            assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
            JsonNode status = null;
            for (int tick = 0; tick < 30; tick++) {
                scheduler.tick();
                status = json(api.get(token, "/api/v1/campaigns/" + id));
                if (status.get("status").asText().equals("completed")) {
                    break;
                }
                clock.advance(Duration.ofMinutes(10));
            }
            assertThat(status.get("status").asText()).isEqualTo("completed");
            assertThat(status.get("report").get("counts").get("sent").asLong()).isEqualTo(VALID);
            JsonNode runs = json(api.get(token, "/api/v1/campaigns/" + id + "/runs")).get("runs");
            assertThat(runs).isNotEmpty();
            long sentByRuns = 0;
            for (JsonNode run : runs) {
                // Each recipient a run took counted once by what became of it; its items are what it tried.
                assertThat(run.get("items").asLong()).as(run.toString())
                        .isEqualTo(run.get("sent").asLong() + run.get("failed").asLong() + run.get("deferred").asLong());
                assertThat(run.get("handed_back").isIntegralNumber()).as(run.toString()).isTrue();
                sentByRuns += run.get("sent").asLong();
            }
            assertThat(sentByRuns).isEqualTo(VALID);

            HttpResponse<String> export = api.get(token, "/api/v1/campaigns/" + id + "/export?format=csv");
            Set<String> exported = new HashSet<>();
            for (CSVRecord r : CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get()
                    .parse(new StringReader(export.body()))) {
                assertThat(r.get("status")).isEqualTo("sent");
                assertThat(exported.add(r.get("email").toLowerCase())).isTrue();
            }
            assertThat(exported).hasSize(VALID);

            Map<String, Integer> received = new HashMap<>();
            for (MimeMessage m : greenMail.getReceivedMessages()) {
                for (Address to : m.getRecipients(Message.RecipientType.TO)) {
                    received.merge(((jakarta.mail.internet.InternetAddress) to).getAddress().toLowerCase(), 1, Integer::sum);
                }
            }
            assertThat(received.keySet()).isEqualTo(exported);
            assertThat(received.values()).allMatch(n -> n == 1);
        }
    }
}
