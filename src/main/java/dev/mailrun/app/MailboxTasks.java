package dev.mailrun.app;

import dev.mailrun.app.config.MailrunConfig;
import dev.mailrun.campaign.bounce.BounceProcessor;
import dev.mailrun.campaign.reply.ReplyProcessor;
import dev.mailrun.scheduler.NewTask;
import dev.mailrun.scheduler.ReportingTask;
import dev.mailrun.scheduler.TaskHandler;
import dev.mailrun.scheduler.TaskStore;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The mailbox tasks a configuration asks for: the bounce mailbox ({@code bounce.imap.host}) and the
 * replies mailbox ({@code replies.imap.host}). Their handlers go into every scheduler; their task rows
 * are written once, when a worker starts ({@link #register}), so that starting a worker is all it
 * takes and building a scheduler writes nothing.
 */
public final class MailboxTasks {

    private MailboxTasks() {}

    /** The handlers of the configured mailboxes; each run builds its processor afresh (a new IMAP session). */
    static List<TaskHandler> handlers(Services s) {
        MailrunConfig config = s.config();
        List<TaskHandler> handlers = new ArrayList<>();
        if (config.bounce().mailbox().isPresent()) {
            handlers.add(new ReportingTask(BounceProcessor.HANDLER, () -> s.bounceProcessor().readMailbox()));
        }
        if (config.replies().counted()) {
            handlers.add(new ReportingTask(ReplyProcessor.HANDLER, () -> s.replyProcessor().readMailbox()));
        }
        return handlers;
    }

    /**
     * Creates the configured mailboxes' task rows, or updates their interval and description: called
     * by the commands that start a worker (worker, tick, demo) before their first tick.
     */
    public static void register(Services s) throws SQLException {
        MailrunConfig config = s.config();
        TaskStore tasks = s.tasks();
        Instant now = s.clock().instant();
        if (config.bounce().mailbox().isPresent()) {
            tasks.upsert(NewTask.of(BounceProcessor.TASK, BounceProcessor.HANDLER, config.bounce().interval(), now)
                    .withDescription("Read the bounce mailbox " + config.bounce().mailbox().get().user()));
        }
        if (config.replies().counted()) {
            tasks.upsert(NewTask.of(ReplyProcessor.TASK, ReplyProcessor.HANDLER, config.replies().interval(), now)
                    .withDescription("Read the replies mailbox " + config.replies().mailbox().get().user()));
        }
    }
}
