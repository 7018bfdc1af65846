package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import dev.mailrun.campaign.AudienceNames;
import dev.mailrun.campaign.CampaignForm;
import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.attach.AttachmentFiles;
import dev.mailrun.campaign.variant.AbForm;
import dev.mailrun.campaign.variant.AbPicks;
import dev.mailrun.campaign.model.AbTest;
import dev.mailrun.campaign.model.Attachment;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.CustomHeaders;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.TrackingMode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code mailrun campaign}: its subcommands, each a few lines that parse options and call the
 * operator's API in {@code campaign}. Over 250 lines as one piece because picocli reads the group and
 * its subcommands together; the logic is not here.
 */
@Command(name = "campaign", mixinStandardHelpOptions = true, description = "Create and operate campaigns.",
        subcommands = {CampaignCommand.Create.class, CampaignCommand.Start.class, CampaignCommand.Pick.class, CampaignCommand.Pause.class,
                CampaignCommand.Resume.class, CampaignCommand.Cancel.class, CampaignCommand.RequeueUnknown.class,
                CampaignCommand.RequeueFailed.class, CampaignCommand.Recount.class,
                CampaignCommand.ListCampaigns.class, StatusCommand.class, ReportCommand.class, CampaignExportCommand.class,
                CampaignContentCommand.class, CampaignMessageCommand.class, CampaignWebVersionCommand.class, CampaignCloneCommand.class,
                CampaignListsCommand.class, CampaignSegmentsCommand.class})
final class CampaignCommand extends GroupCommand {

    /** Operator mistakes (wrong state, unknown id) are usage errors: exit 2, one line. */
    abstract static class CampaignAction extends ContextCommand {
        @Override
        final int run(Services s) throws Exception {
            try {
                return act(s);
            } catch (InvalidFields e) {
                throw e;   // every problem, one line each, named by its option (Cli)
            } catch (CampaignException | IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }

        abstract int act(Services s) throws Exception;
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Create a draft campaign; prints its id alone on stdout.")
    static final class Create extends CampaignAction {
        @Option(names = "--name", required = true, paramLabel = "N",
                description = "Campaign name: shown in lists and status, and the List-Id header's phrase.") String name;
        @Option(names = "--template", paramLabel = "T",
                description = "A stored template, or a folder under templates.dir (stored first when new); or --layout.")
        String template;
        @Mixin MessageOptions message = new MessageOptions();
        @Option(names = "--from", paramLabel = "ADDR",
                description = "Sender address; default: the template's from (template.properties), with its display name.")
        String from;
        @Option(names = "--from-name", paramLabel = "NAME", description = "Sender display name.") String fromName;
        @Option(names = "--reply-to", paramLabel = "ADDR", description = "Reply-To address; default: none (replies go to --from).")
        String replyTo;
        @Option(names = "--subject", paramLabel = "S",
                description = "Replaces the template's subject; with --layout, the message's subject.") String subject;
        @Option(names = "--start-at", paramLabel = "TIME",
                description = "Earliest start, in the future, e.g. 2026-12-01T09:00:00Z or "
                        + "'2026-12-01T09:00 Europe/Berlin' (before 9999-01-01).") String startAt;
        @Option(names = "--rate", paramLabel = "R",
                description = "Messages per second for this campaign, 0.01-100000 (the route's rate when lower).") Double rate;
        @Option(names = "--window", paramLabel = "RANGE",
                description = "When it may send, e.g. \"Mon-Fri 08:00-18:00 Europe/Berlin\"; repeat the option "
                        + "or separate ranges with ';' for several. Default: any time.") List<String> windows;
        @Option(names = "--expire-at", paramLabel = "TIME",
                description = "Recipients not sent by then expire, e.g. 2026-12-01T18:00:00Z or "
                        + "'2026-12-01T18:00 Europe/Berlin'; the campaign then completes.") String expireAt;
        @Option(names = "--relay", paramLabel = "ROUTE",
                description = "Relays to send through: NAME, or NAME:WEIGHT,… split by weight (primary:70,backup:30); "
                        + "default: smtp.relays.") String relay;
        @Option(names = "--header", paramLabel = "NAME:VALUE",
                description = "A header every message carries, e.g. \"X-Campaign-Tag: spring-2026\" (repeatable, at most 20); "
                        + "headers mailrun writes itself, and those naming the sender, recipients or MIME structure, are refused.")
        List<String> headers;
        @Option(names = "--attach", paramLabel = "FILE",
                description = "A file every message carries (repeatable); copied into the database now, within "
                        + "content.max-attachment-bytes each and content.max-message-bytes together.") List<Path> attach;
        @Option(names = "--inline", paramLabel = "IMAGE",
                description = "An image the HTML shows as <img src=\"cid:NAME\">, NAME its file name (repeatable); "
                        + "stored and limited as --attach.") List<Path> inline;
        @Option(names = "--track", paramLabel = "clicks|opens,clicks",
                description = "Track clicks (links rewritten) or opens and clicks (also a 1x1 image); needs tracking.enabled "
                        + "(docs/TRACKING.md). Default: not tracked.") String track;
        @Option(names = "--list", paramLabel = "NAME",
                description = "Send to the subscribers of this list (repeatable); at start they become the recipients, "
                        + "each once, without the unsubscribed, blocklisted, suppressed and unconfirmed of double opt-in "
                        + "lists (docs/AUDIENCE.md).") List<String> lists;
        @Option(names = "--segment", paramLabel = "NAME",
                description = "Send to the subscribers this segment matches at start (repeatable), those holding a confirmed "
                        + "subscription (or unconfirmed on a single opt-in list), each once with the lists', without the blocklisted "
                        + "and suppressed (docs/AUDIENCE.md).") List<String> segments;
        @Option(names = "--web-version", paramLabel = "personal|anonymous",
                description = "What its messages' web version pages show: personal (the recipient's fields, as the message "
                        + "had them) or anonymous (the campaign's only); default: as webversion.personal says.") String webVersion;
        @Option(names = "--variant", paramLabel = "NAME:KEY=VALUE;…",
                description = "An A/B variant (2-5, repeatable): NAME:subject=…;template=…;from-name=…;field.NAME=…; "
                        + "NAME alone is the campaign as created.") List<String> variants;
        @Option(names = "--test-share", paramLabel = "PERCENT",
                description = "The share of the list sent the variants first: a percentage from 1%% to 50%%, e.g. 20%%.") String testShare;
        @Option(names = "--decide-after", paramLabel = "DURATION",
                description = "When the winner falls due after the test share went out, e.g. 4h.") String decideAfter;
        @Option(names = "--decide", paramLabel = "manual",
                description = "manual: the winner is what `campaign pick` says (the default).") String decide;
        @Option(names = "--pick-by", paramLabel = "MEASURE",
                description = "manual (the default); clicks: the highest rate of human clicks (needs --track clicks); "
                        + "replies: the highest reply rate (needs replies.imap.host).") String pickBy;

        @Override
        int act(Services s) throws Exception {
            if ((template == null) == !message.given()) {
                throw new UsageException("give --template, or --layout with --body for the campaign's own message");
            }
            CampaignForm form = new CampaignForm(name, template, Optional.ofNullable(from), Optional.ofNullable(fromName), Optional.ofNullable(replyTo),
                    Optional.ofNullable(message.given() ? null : subject), Optional.ofNullable(startAt), Optional.ofNullable(rate),
                    windows == null ? List.of() : windows, Optional.ofNullable(expireAt), Optional.ofNullable(relay),
                    CustomHeaders.parse(headers == null ? List.of() : headers).list(), Optional.ofNullable(webVersion));
            AbForm ab = new AbForm(variants, Optional.ofNullable(testShare), Optional.ofNullable(decideAfter),
                    Optional.ofNullable(decide), Optional.ofNullable(pickBy));
            Optional<TrackingMode> tracking = tracking();
            List<Attachment> files = new AttachmentFiles(s.config().content().attachments())
                    .read(attach == null ? List.of() : attach, inline == null ? List.of() : inline);
            out().println(message.given()
                    ? s.campaigns().create(form, s.config().relays(), ab, files, tracking,
                            message.form(subject, s.config().content().maxTemplateBytes()), new AudienceNames(lists, segments))
                    : s.campaigns().create(form, s.config().relays(), ab, files, tracking, new AudienceNames(lists, segments)));
            return Cli.OK;
        }

        /** What --track asks for; whether tracking is on, the campaign service checks. */
        private Optional<TrackingMode> tracking() {
            if (track == null) {
                return Optional.empty();
            }
            return Optional.of(TrackingMode.parse(track).orElseThrow(() -> new UsageException(
                    "--track must be clicks, opens or opens,clicks, got '" + track + "'")));
        }
    }

    @Command(name = "start", mixinStandardHelpOptions = true,
            description = "Start a draft campaign (checks recipients, template and the unsubscribe settings first).")
    static final class Start extends CampaignAction {
        @Parameters(paramLabel = "ID", description = "Campaign id.") long id;

        @Override
        int act(Services s) throws Exception {
            CampaignStatus status = s.campaigns().start(id);
            out().println("campaign " + id + " is " + status.dbValue()
                    + (status == CampaignStatus.SCHEDULED ? " (waits for its start time)" : "; the next tick sends"));
            return Cli.OK;
        }
    }

    @Command(name = "pick", mixinStandardHelpOptions = true,
            description = "Pick the winner of an A/B test once its test share is sent; the rest of the list is sent it.")
    static final class Pick extends CampaignAction {
        @Parameters(index = "0", paramLabel = "ID", description = "Campaign id.") long id;
        @Parameters(index = "1", paramLabel = "VARIANT", description = "Name of the winning variant (as given to --variant).") String variant;

        @Override
        int act(Services s) throws Exception {
            AbPicks.Picked picked = s.campaigns().pick(id, variant);
            out().println("campaign " + id + ": variant " + picked.variant() + " won; " + picked.givenTheWinner()
                    + " recipient(s) will be sent it");
            return Cli.OK;
        }
    }

    @Command(name = "pause", mixinStandardHelpOptions = true, description = "Pause at the next batch boundary.")
    static final class Pause extends CampaignAction {
        @Parameters(paramLabel = "ID", description = "Campaign id.") long id;
        @Option(names = "--reason", paramLabel = "TEXT", description = "Why, shown in status (default: paused by operator).")
        String reason = "paused by operator";

        @Override
        int act(Services s) throws Exception {
            s.campaigns().pause(id, reason);
            out().println("campaign " + id + " paused");
            return Cli.OK;
        }
    }

    @Command(name = "resume", mixinStandardHelpOptions = true, description = "Resume a paused campaign.")
    static final class Resume extends CampaignAction {
        @Parameters(paramLabel = "ID", description = "Campaign id.") long id;

        @Override
        int act(Services s) throws Exception {
            out().println("campaign " + id + " is " + s.campaigns().resume(id).dbValue());
            return Cli.OK;
        }
    }

    @Command(name = "cancel", mixinStandardHelpOptions = true, description = "Cancel for good; nothing more is sent.")
    static final class Cancel extends CampaignAction {
        @Parameters(paramLabel = "ID", description = "Campaign id.") long id;

        @Override
        int act(Services s) throws Exception {
            s.campaigns().cancel(id);
            out().println("campaign " + id + " cancelled");
            return Cli.OK;
        }
    }

    @Command(name = "requeue-unknown", mixinStandardHelpOptions = true,
            description = {"Send again the recipients whose delivery is unknown (a run died mid-send).",
                    "Some of them may have received the message already: this is your call."})
    static final class RequeueUnknown extends CampaignAction {
        @Parameters(paramLabel = "ID", description = "Campaign id.") long id;

        @Override
        int act(Services s) throws Exception {
            out().println("requeued " + s.campaigns().requeueUnknown(id) + " recipient(s) of campaign " + id);
            return Cli.OK;
        }
    }

    @Command(name = "recount", mixinStandardHelpOptions = true,
            description = {"Rebuild the campaign's status counts from its recipient rows (status reads the kept counts).",
                    "Only needed after rows were changed with SQL of your own, or by a worker older than the schema."})
    static final class Recount extends CampaignAction {
        @Parameters(paramLabel = "ID", description = "Campaign id.") long id;

        @Override
        int act(Services s) throws Exception {
            int differed = s.campaigns().recount(id);
            out().println(differed == 0 ? "campaign " + id + ": status counts were exact"
                    : "campaign " + id + ": status counts rebuilt; " + differed + " (status, relay) count(s) differed");
            return Cli.OK;
        }
    }

    @Command(name = "requeue-failed", mixinStandardHelpOptions = true,
            description = {"Send again the failed recipients whose failure was not about their address.",
                    "That is, failures from a bad setting or a relay outage that outlasted the retries. Recipients whose "
                            + "address is suppressed (hard bounce, complaint, unsubscribe) are never requeued."})
    static final class RequeueFailed extends CampaignAction {
        @Parameters(paramLabel = "ID", description = "Campaign id.") long id;

        @Option(names = "--code", paramLabel = "4xx|5xx|CODE",
                description = "Only failures whose last reply had this class or code (e.g. 4xx, 451).")
        String code;

        @Option(names = "--reason", paramLabel = "TEXT",
                description = "Only failures whose last error contains this text (case ignored).")
        String reason;

        @Override
        int act(Services s) throws Exception {
            Campaigns.RequeueResult r = s.campaigns().requeueFailed(id, Optional.ofNullable(code), Optional.ofNullable(reason));
            out().println("requeued " + r.requeued() + " failed recipient(s) of campaign " + id
                    + (r.leftSuppressed() > 0 ? "; left " + r.leftSuppressed() + " whose address is suppressed" : ""));
            return Cli.OK;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List campaigns.")
    static final class ListCampaigns extends CampaignAction {
        @Override
        int act(Services s) throws Exception {
            List<Campaign> all = s.campaigns().list();
            out().printf("%-6s %-10s %-14s %s%n", "ID", "STATUS", "TEMPLATE", "NAME");
            for (Campaign c : all) {
                out().printf("%-6d %-10s %-14s %s%s%n", c.id(), c.status().dbValue(), c.template(), c.name(),
                        c.pauseReason().map(r -> "  (" + r + ")").orElse(""));
            }
            return Cli.OK;
        }
    }

    /** The first and the last instant a time option takes (timestamps are DATETIME(3) columns). */
    static final Instant EARLIEST_START = CampaignForm.EARLIEST;
    static final Instant LATEST_START = CampaignForm.LATEST;

    static String duration(Duration d) {
        long s = d.toSeconds();
        return s >= 3600 ? String.format("%dh%02dm", s / 3600, (s % 3600) / 60)
                : s >= 60 ? String.format("%dm%02ds", s / 60, s % 60) : String.format("%.1fs", d.toMillis() / 1000.0);
    }

    static String rate(Optional<Double> r) {
        return r.map(v -> String.format("%.1f/s", v)).orElse("-");
    }

}
