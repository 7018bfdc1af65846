package dev.mailrun.http.api;

import dev.mailrun.campaign.CampaignExport;
import dev.mailrun.campaign.importing.ImportStoppedException;
import dev.mailrun.campaign.importing.RecipientImportReport;
import dev.mailrun.campaign.importing.RecipientRejectReason;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.csv.RejectedRow;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * A campaign's recipients: added in bulk as JSON or as a streamed CSV upload — both through the
 * importer {@code recipients import} uses, with its report — looked up by address, and exported as
 * CSV or NDJSON.
 */
final class RecipientsApi {

    static final int MAX_JSON_RECIPIENTS = 10_000;

    /** One recipient of a JSON bulk add. */
    record NewRecipient(String email, String name, Map<String, String> fields) {}

    record BulkBody(List<NewRecipient> recipients) {}

    private final ApiServices s;

    RecipientsApi(ApiServices services) {
        this.s = services;
    }

    List<Operation> operations() {
        return List.of(
                Operation.write("POST", "/campaigns/{id}/recipients", ApiScope.RECIPIENTS_WRITE, Operation.Body.JSON,
                        "recipients.add", this::addJson),
                Operation.write("POST", "/campaigns/{id}/recipients/import", ApiScope.RECIPIENTS_WRITE, Operation.Body.CSV,
                        "recipients.import", r -> imported(r, r.upload().orElseThrow(), false)),
                Operation.read("/campaigns/{id}/recipients/{address}", ApiScope.CAMPAIGNS_READ, this::lookup),
                Operation.read("/campaigns/{id}/export", ApiScope.CAMPAIGNS_READ, this::export).query("format"));
    }

    /**
     * The JSON recipients go to the importer as a CSV file of one line per recipient (values are one
     * line each), so they meet every check a CSV file does; the row's line minus 2 is its index.
     */
    private ApiResponse addJson(ApiRequest r) throws Exception {
        long id = r.id("id");
        s.campaigns().get(id);
        BulkBody body = r.json(BulkBody.class);
        if (body.recipients() == null || body.recipients().isEmpty()) {
            throw ApiException.invalid("recipients", "at least one recipient is needed");
        }
        if (body.recipients().size() > MAX_JSON_RECIPIENTS) {
            throw ApiException.invalid("recipients", "at most " + MAX_JSON_RECIPIENTS + " per request; upload a CSV file for more");
        }
        Set<String> columns = new LinkedHashSet<>();
        List<Map<String, String>> checked = new ArrayList<>();
        for (int i = 0; i < body.recipients().size(); i++) {
            NewRecipient n = body.recipients().get(i);
            if (n == null) {
                throw ApiException.invalid("recipients[" + i + "]", "must be an object");
            }
            Map<String, String> fields = Strings.fields("recipients[" + i + "].fields", n.fields());
            if (fields.containsKey("email") || fields.containsKey("name")) {
                throw ApiException.invalid("recipients[" + i + "].fields", "email and name are given beside fields, not in them");
            }
            columns.addAll(fields.keySet());
            Map<String, String> row = new LinkedHashMap<>(fields);
            row.put("email", n.email() == null ? "" : oneLine("recipients[" + i + "].email", n.email(), 1000));
            row.put("name", n.name() == null ? "" : oneLine("recipients[" + i + "].name", n.name(), 1000));
            checked.add(row);
        }
        Path csv = Files.createTempFile("mailrun-recipients-", ".csv");
        try {
            List<String> header = new ArrayList<>(List.of("email", "name"));
            header.addAll(columns);
            try (Writer w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8);
                 CSVPrinter p = new CSVPrinter(w, CSVFormat.RFC4180)) {
                p.printRecord(header);
                for (Map<String, String> row : checked) {
                    p.printRecord(header.stream().map(h -> row.getOrDefault(h, "")).toList());
                }
            }
            return imported(r, csv, true);
        } finally {
            Files.deleteIfExists(csv);
        }
    }

    /**
     * Each recipient is one line of the file, so that its index can be told from the line; a value
     * that would break the line, or is longer than any address or name, refuses the request (an
     * address that is merely not one is the importer's to reject, with its index).
     */
    private static String oneLine(String field, String value, int max) {
        if (value.length() > max) {
            throw ApiException.invalid(field, "is longer than " + max + " characters");
        }
        if (value.chars().anyMatch(c -> c == '\r' || c == '\n')) {
            throw ApiException.invalid(field, "must be one line (no CR or LF)");
        }
        return value;
    }

    private ApiResponse imported(ApiRequest r, Path file, boolean json) throws Exception {
        long id = r.id("id");
        s.campaigns().get(id);
        try {
            return ApiResponse.json(200, report(s.importer().importCsv(id, file, Optional.empty(), n -> { }), json));
        } catch (ImportStoppedException e) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("type", Problems.TYPE_BASE + "import-stopped");
            body.put("title", "Import stopped");
            body.put("status", 503);
            body.put("detail", e.getMessage());
            body.put("report", report(e.report(), json));
            return ApiResponse.raw(503, ApiResponse.PROBLEM, Json.bytes(body)).header("Retry-After", "5");
        }
    }

    static Map<String, Object> report(RecipientImportReport report, boolean json) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("rows", report.rows());
        m.put("imported", report.imported());
        m.put("duplicates", report.rejectedByReason().getOrDefault(RecipientRejectReason.DUPLICATE_IN_FILE, 0L)
                + report.rejectedByReason().getOrDefault(RecipientRejectReason.ALREADY_IN_CAMPAIGN, 0L));
        m.put("rejected", report.rejected());
        Map<String, Long> byReason = new LinkedHashMap<>();
        report.rejectedByReason().entrySet().stream().filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.comparingByKey()).forEach(e -> byReason.put(e.getKey().label(), e.getValue()));
        m.put("rejected_by_reason", byReason);
        List<Map<String, Object>> rejects = new ArrayList<>();
        for (RejectedRow<RecipientRejectReason> row : report.firstRejects()) {
            Map<String, Object> reject = new LinkedHashMap<>();
            if (json) {
                reject.put("index", row.line() - 2);
            } else {
                reject.put("line", row.line());
            }
            reject.put("email", row.email());
            reject.put("reason", row.reason().label());
            reject.put("detail", row.detail());
            rejects.add(reject);
        }
        m.put("first_rejects", rejects);
        return m;
    }

    private ApiResponse lookup(ApiRequest r) throws Exception {
        String address = r.var("address");
        if (!(EmailAddress.check(address) instanceof EmailAddress.Valid valid)) {
            throw ApiException.invalid("address", "not an email address: " + Shown.of(address));
        }
        long id = r.id("id");
        s.campaigns().get(id);
        Map<String, Object> found = s.export().one(id, valid.address())
                .orElseThrow(() -> ApiException.notFound("campaign " + r.var("id") + " has no recipient " + Shown.of(address)));
        return ApiResponse.json(200, json(found));
    }

    /** An export row as JSON: the CSV export's column names; numbers (the id among them) as numbers, times as strings, absent values null. */
    static Map<String, Object> json(Map<String, Object> row) {
        Map<String, Object> m = new LinkedHashMap<>();
        row.forEach((name, value) -> m.put(name, value instanceof Number || value == null ? value : value.toString()));
        return m;
    }

    private ApiResponse export(ApiRequest r) throws Exception {
        long id = r.id("id");
        String format = r.param("format").orElse("csv");
        s.campaigns().get(id);
        CampaignExport export = s.export();
        return switch (format) {
            case "csv" -> ApiResponse.stream("text/csv; charset=utf-8", out -> {
                Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
                export.write(id, w);
                w.flush();
            }).header("Content-Disposition", "attachment; filename=\"campaign-" + id + ".csv\"");
            case "ndjson" -> ApiResponse.stream("application/x-ndjson", out -> {
                export.rows(id, new CampaignExport.Table() {
                    private List<String> columns;

                    @Override
                    public void columns(List<String> names) {
                        columns = names;
                    }

                    @Override
                    public void row(List<Object> values) throws IOException {
                        Map<String, Object> named = new LinkedHashMap<>();
                        for (int i = 0; i < values.size(); i++) {
                            named.put(columns.get(i), values.get(i));
                        }
                        out.write(Json.bytes(json(named)));
                        out.write('\n');
                    }
                });
                out.flush();
            });
            default -> throw ApiException.invalid("format", "csv or ndjson");
        };
    }

}
