package dev.mailrun.http.status;

/** The status page's one stylesheet, inline (the page loads nothing); the charts bring their own ({@link StatusCharts#CSS}). */
final class StatusStyle {

    private StatusStyle() {}

    static final String CSS = """
            :root { color-scheme: light; --ink: #1d2430; --muted: #5b6675; --line: #d8dee6; --ok: #2f6fdb;
                    --bad: #d23a3a; --slot: #eef1f5; --bg: #f6f7f9; }
            * { box-sizing: border-box; }
            body { margin: 0; background: var(--bg); color: var(--ink);
                   font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
            header { padding: 18px 28px 6px; }
            header h1 { margin: 0; font-size: 22px; }
            header p { margin: 2px 0 0; color: var(--muted); }
            main { padding: 8px 28px 28px; }
            .campaign { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 18px 22px;
                        margin: 14px 0; max-width: 1100px; }
            .campaign h2 { margin: 0 0 2px; font-size: 19px; }
            .campaign h3 { font-size: 15px; margin: 18px 0 6px; }
            .id { color: var(--muted); font-weight: 500; }
            .meta { margin: 0 0 10px; color: var(--muted); font-size: 13px; }
            .badge { display: inline-block; font-size: 12px; font-weight: 600; padding: 2px 9px; border-radius: 999px;
                     vertical-align: middle; background: #e6ebf2; color: #38414d; }
            .badge.running { background: #dcebff; color: #1550b0; }
            .badge.completed { background: #daf3e2; color: #17693a; }
            .badge.paused { background: #fff0d6; color: #8a5300; }
            .badge.cancelled { background: #f6dede; color: #9b2222; }
            .paused { margin: 0 0 10px; padding: 6px 10px; background: #fff6e5; border-left: 3px solid #e19a12; }
            .progress { height: 12px; background: var(--slot); border-radius: 6px; overflow: hidden; }
            .progress .done { height: 100%; background: var(--ok); }
            .progress-text { margin: 4px 0 10px; font-size: 13px; color: var(--muted); }
            .stats { display: grid; grid-template-columns: repeat(auto-fill, minmax(120px, 1fr)); gap: 8px; margin: 0 0 14px; }
            .stats div { background: var(--bg); border-radius: 8px; padding: 6px 10px; }
            .stats dt { font-size: 12px; color: var(--muted); }
            .stats dd { margin: 0; font-size: 17px; font-weight: 600; font-variant-numeric: tabular-nums; }
            .stats dd.over { color: var(--bad); }
            table { border-collapse: collapse; margin: 6px 0; font-variant-numeric: tabular-nums; }
            th, td { text-align: left; padding: 3px 10px 3px 0; border-bottom: 1px solid var(--line); }
            th { font-weight: 600; }
            """ + StatusCharts.CSS;
}
