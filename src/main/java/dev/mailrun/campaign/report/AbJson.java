package dev.mailrun.campaign.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mailrun.campaign.variant.AbReport;
import dev.mailrun.campaign.variant.Wilson;

/** The {@code ab} object of a campaign's status JSON (docs/STATUS-JSON.md). */
final class AbJson {

    private AbJson() {
    }

    static void put(ObjectNode n, AbReport ab) {
        n.put("test_share_percent", ab.state().test().testSharePercent());
        ab.state().testSize().ifPresentOrElse(size -> n.put("test_size", size), () -> n.putNull("test_size"));
        ab.state().test().decideAfter().ifPresentOrElse(d -> n.put("decide_after_seconds", d.toSeconds()),
                () -> n.putNull("decide_after_seconds"));
        n.put("pick_by", ab.state().test().pickBy().wireName());
        n.put("measure", ab.measure());
        n.put("test_done_at", ab.state().testDoneAt().map(Object::toString).orElse(null));
        n.put("decision_due_at", ab.state().decisionDue().map(Object::toString).orElse(null));
        n.put("waiting", ab.waiting().orElse(null));
        n.put("winner", ab.state().winnerName().orElse(null));
        n.put("winner_reason", ab.state().winnerReason().orElse(null));
        n.put("decided_at", ab.state().decidedAt().map(Object::toString).orElse(null));
        ArrayNode variants = n.putArray("variants");
        for (AbReport.Line l : ab.variants()) {
            ObjectNode v = variants.addObject();
            v.put("name", l.name());
            v.put("winner", l.winner());
            figures(v, l.test());
            l.rest().ifPresentOrElse(rest -> figures(v.putObject("rest"), rest), () -> v.putNull("rest"));
        }
    }

    /** A variant's test share's figures, or the rest's: the same fields. */
    private static void figures(ObjectNode v, AbReport.Figures f) {
        v.put("recipients", f.recipients());
        v.put("sent", f.sent());
        v.put("delivered", f.delivered());
        v.put("bounces", f.bounces());
        v.put("complaints", f.complaints());
        v.put("unsubscribes", f.unsubscribes());
        Wilson w = f.measure();
        ObjectNode m = v.putObject("measure");
        m.put("count", w.successes());
        m.put("of", w.trials());
        m.put("rate", round(w.rate()));
        m.put("low95", round(w.low()));
        m.put("high95", round(w.high()));
    }

    private static double round(double d) {
        return Math.round(d * 100_000) / 100_000.0;
    }
}
