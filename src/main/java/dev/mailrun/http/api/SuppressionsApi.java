package dev.mailrun.http.api;

import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.suppression.SuppressionImportReport;
import dev.mailrun.campaign.suppression.SuppressionList;
import dev.mailrun.campaign.suppression.SuppressionRejectReason;
import dev.mailrun.csv.RejectedRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** The suppression list: list (filters, cursor), check, add with a reason, remove with why (audited), import a CSV upload. */
final class SuppressionsApi {

    record AddBody(String address, String reason) {}

    record RemoveBody(String why) {}

    private final ApiServices s;
    private final SuppressionList list;

    SuppressionsApi(ApiServices services) {
        this.s = services;
        this.list = services.suppressions();
    }

    List<Operation> operations() {
        return List.of(
                Operation.read("/suppressions", ApiScope.SUPPRESSIONS_READ, this::page).query("reason", "since", "limit", "cursor"),
                Operation.read("/suppressions/{address}", ApiScope.SUPPRESSIONS_READ, this::check),
                Operation.write("POST", "/suppressions", ApiScope.SUPPRESSIONS_WRITE, Operation.Body.JSON, "suppression.add", this::add),
                Operation.write("DELETE", "/suppressions/{address}", ApiScope.SUPPRESSIONS_WRITE, Operation.Body.JSON,
                        "suppression.remove", this::remove),
                Operation.write("POST", "/suppressions/{address}/erase-tracking", ApiScope.SUPPRESSIONS_WRITE,
                        Operation.Body.NONE, "tracking.erase", this::eraseTracking),
                Operation.write("POST", "/suppressions/import", ApiScope.SUPPRESSIONS_WRITE, Operation.Body.CSV,
                        "suppression.import", this::importCsv).query("reason"));
    }

    private ApiResponse page(ApiRequest r) throws Exception {
        int limit = r.intParam("limit", 1, 1000, 100);
        Optional<SuppressionReason> reason = r.param("reason").map(SuppressionsApi::reason);
        Optional<Instant> since = r.param("since").map(t -> {
            try {
                return Instant.parse(t);
            } catch (java.time.format.DateTimeParseException e) {
                throw ApiException.invalid("since", "must be an RFC 3339 UTC instant such as 2026-12-01T09:00:00Z");
            }
        });
        String after = r.param("cursor").map(c -> Cursors.decode("suppressions", c)).orElse("");
        // In address order after the cursor's address: an address added meanwhile never shifts a page.
        List<SuppressionTable.Stored> rows = list.page(new SuppressionTable.Filter(reason, since), after, limit + 1);
        List<SuppressionTable.Stored> page = rows.subList(0, Math.min(limit, rows.size()));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("suppressions", page.stream().map(SuppressionsApi::stored).toList());
        body.put("next_cursor", rows.size() > limit ? Cursors.encode("suppressions", page.get(page.size() - 1).address()) : null);
        return ApiResponse.json(200, body);
    }

    private ApiResponse check(ApiRequest r) throws Exception {
        SuppressionList.Status status = list.check(address("address", r.var("address")));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("address", status.key());
        body.put("suppressed", status.suppression().isPresent());
        body.put("suppression", status.suppression().map(SuppressionsApi::stored).orElse(null));
        body.put("last_removal", status.lastRemoval().map(rm -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("why", rm.why());
            m.put("removed_by", rm.removedBy());
            m.put("removed_at", rm.removedAt().toString());
            return m;
        }).orElse(null));
        return ApiResponse.json(200, body);
    }

    private ApiResponse add(ApiRequest r) throws Exception {
        AddBody body = r.json(AddBody.class);
        EmailAddress address = address("address", Strings.required("address", body.address(), EmailAddress.MAX_ADDRESS_OCTETS));
        SuppressionReason reason = Strings.optional("reason", body.reason(), 20).map(SuppressionsApi::reason).orElse(SuppressionReason.MANUAL);
        boolean added = list.add(address, reason, "api:" + r.caller().name());
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("address", address.suppressionKey());
        answer.put("added", added);
        return ApiResponse.json(added ? 201 : 200, answer);
    }

    private ApiResponse remove(ApiRequest r) throws Exception {
        RemoveBody body = r.json(RemoveBody.class);
        String why = Strings.required("why", body.why(), 1000);
        EmailAddress address = address("address", r.var("address"));
        Optional<SuppressionTable.Stored> removed = list.remove(address, why, "api:" + r.caller().name());
        if (removed.isEmpty()) {
            throw ApiException.notFound(address.suppressionKey() + " is not on the suppression list");
        }
        return ApiResponse.json(200, Map.of("address", address.suppressionKey(), "removed", stored(removed.get())));
    }

    /** As {@code suppressions erase-tracking}: the address's opens and clicks deleted, nothing more recorded. */
    private ApiResponse eraseTracking(ApiRequest r) throws Exception {
        EmailAddress address = address("address", r.var("address"));
        int erased = s.trackingErasure().erase(address.value());
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("address", address.suppressionKey());
        answer.put("erased", erased);
        return ApiResponse.json(200, answer);
    }

    private ApiResponse importCsv(ApiRequest r) throws Exception {
        SuppressionReason reason = r.param("reason").map(SuppressionsApi::reason).orElse(SuppressionReason.IMPORTED);
        SuppressionImportReport report = s.suppressionImporter().importCsv(r.upload().orElseThrow(), reason, Optional.empty(), n -> { });
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("address_column", report.addressColumn());
        m.put("rows", report.rows());
        m.put("suppressed", report.suppressed());
        m.put("already_suppressed", report.alreadySuppressed());
        m.put("rejected", report.rejected());
        Map<String, Long> byReason = new LinkedHashMap<>();
        report.rejectedByReason().entrySet().stream().filter(e -> e.getValue() > 0).sorted(Map.Entry.comparingByKey())
                .forEach(e -> byReason.put(e.getKey().label(), e.getValue()));
        m.put("rejected_by_reason", byReason);
        List<Map<String, Object>> rejects = new ArrayList<>();
        for (RejectedRow<SuppressionRejectReason> row : report.firstRejects()) {
            rejects.add(Map.of("line", row.line(), "email", row.email(), "reason", row.reason().label(), "detail", row.detail()));
        }
        m.put("first_rejects", rejects);
        return ApiResponse.json(200, m);
    }

    private static Map<String, Object> stored(SuppressionTable.Stored st) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("address", st.address());
        m.put("reason", st.reason());
        m.put("source", st.source());
        m.put("created_at", st.createdAt().toString());
        return m;
    }

    private static EmailAddress address(String field, String text) {
        if (EmailAddress.check(text) instanceof EmailAddress.Valid valid) {
            return valid.address();
        }
        throw ApiException.invalid(field, "not an email address: " + Shown.of(text));
    }

    private static SuppressionReason reason(String text) {
        return SuppressionReason.fromDb(text).orElseThrow(() -> ApiException.invalid("reason", "one of "
                + Arrays.stream(SuppressionReason.values()).map(SuppressionReason::dbValue).collect(Collectors.joining(", "))));
    }
}
