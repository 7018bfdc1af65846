package dev.mailrun.http.status;

import dev.mailrun.campaign.report.CampaignReport;

/**
 * A campaign's three charts as inline SVG — the run timeline, messages per minute against the configured
 * rate, outcomes with the hard-bounce rate against its threshold — each with its data table: what the
 * status page draws for every campaign and the console's campaign page for its one. The markup carries
 * classes only (no {@code style} attribute, no script), so it shows under a policy that allows no inline
 * style as long as the page's style sheet holds {@link #CSS}; every text in it is escaped here.
 */
public final class StatusCharts {

    /**
     * The charts' styles, self-contained (their own colours), for the page's style sheet: the status
     * page inlines them, the console serves them in its one style sheet.
     */
    public static final String CSS = """
            .charts { display: grid; gap: 12px; }
            .charts figure { margin: 0; min-width: 0; }
            .charts figure h3 { margin: 8px 0 2px; font-size: 14px; }
            .charts figcaption { font-size: 13px; color: #5b6675; margin-top: 2px; }
            .charts details { font-size: 13px; margin-top: 2px; }
            .charts summary { cursor: pointer; color: #5b6675; }
            .charts .scroll { overflow-x: auto; }
            svg.chart { --ink: #1d2430; --muted: #5b6675; --ok: #2f6fdb; --bad: #d23a3a; --slot: #eef1f5;
                        width: 100%; height: auto; display: block; background: #fff; }
            svg.chart text { font: 11px system-ui, sans-serif; fill: var(--muted); }
            svg.chart .note { font-size: 13px; }
            svg.chart .legend { fill: var(--ink); }
            svg.chart .axis { stroke: #9aa4b1; stroke-width: 1; }
            svg.chart .slot { fill: var(--slot); stroke: #c9d1db; stroke-width: 1; }
            svg.chart .bar.ok { fill: var(--ok); }
            svg.chart .bar.stopped { fill: #8a7be0; }
            svg.chart .bar.bad { fill: #b44; }
            svg.chart .overrun { fill: var(--bad); }
            svg.chart .deadline { stroke: #39424e; stroke-width: 1.5; stroke-dasharray: 4 3; }
            svg.chart .rate-bar { fill: #4c8bf0; }
            svg.chart .target { stroke: #e0862c; stroke-width: 2; stroke-dasharray: 6 4; }
            svg.chart .scale { fill: var(--slot); }
            svg.chart .bounce { fill: #3aa46a; }
            svg.chart .bounce.over { fill: var(--bad); }
            svg.chart .threshold { stroke: var(--bad); stroke-width: 2; }
            svg.chart .st-sent { fill: #2f9e5b; } svg.chart .st-failed { fill: #d23a3a; } svg.chart .st-suppressed { fill: #8e98a6; }
            svg.chart .st-unknown { fill: #e0862c; } svg.chart .st-expired { fill: #a77bca; } svg.chart .st-retry { fill: #e8c547; }
            svg.chart .st-sending { fill: #4c8bf0; } svg.chart .st-pending { fill: #cfd6df; } svg.chart .st-none { fill: var(--slot); }
            """;

    private StatusCharts() {}

    /** The campaign's charts, one {@code <div class="charts">} of figures. */
    public static String html(CampaignReport report) {
        RunCharts runs = new RunCharts(report);
        return "<div class=\"charts\">\n" + runs.timeline() + runs.rate() + OutcomeChart.render(report) + "</div>\n";
    }
}
