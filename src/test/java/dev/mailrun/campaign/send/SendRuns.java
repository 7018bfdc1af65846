package dev.mailrun.campaign.send;

import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.scheduler.TaskRun;
import dev.mailrun.scheduler.TaskStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** For tests with several workers: ticking them side by side, and how the campaigns' runs ended. */
final class SendRuns {

    private SendRuns() {}

    /** Both workers tick at once, so their runs claim side by side. */
    static void tickTogether(Scheduler first, Scheduler second) throws Exception {
        ExecutorService both = Executors.newFixedThreadPool(2);
        try {
            Future<?> f1 = both.submit(() -> first.tick());
            Future<?> f2 = both.submit(() -> second.tick());
            f1.get();
            f2.get();
        } finally {
            both.shutdownNow();
        }
    }

    /** The end reason of each recent run of the campaigns' sending tasks that recorded one. */
    static List<String> endReasons(TaskStore tasks, long... campaigns) throws Exception {
        List<String> reasons = new ArrayList<>();
        for (long id : campaigns) {
            for (TaskRun r : tasks.recentRuns(SendTask.taskName(id), 20)) {
                r.summary().map(s -> s.path("end").asText()).filter(s -> !s.isEmpty()).ifPresent(reasons::add);
            }
        }
        return reasons;
    }
}
