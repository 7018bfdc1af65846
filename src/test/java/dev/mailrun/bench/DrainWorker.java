package dev.mailrun.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.scheduler.SchedulerConfig;
import dev.mailrun.testing.SendSettingsFixtures;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.time.Clock;
import java.time.Duration;

/**
 * The child JVM of the scale benchmark's memory part: drains one started campaign through the real
 * pipeline, printing its heap (from the platform memory bean) once a second as
 * {@code heap USED_BYTES COMMITTED_BYTES} and finally {@code done SENT SECONDS}.
 *
 * <p>Arguments: {@code DATABASE CAMPAIGN_ID SMTP_PORT CONNECTIONS}.
 */
public final class DrainWorker {

    private DrainWorker() {}

    public static void main(String[] args) throws Exception {
        String database = args[0];
        long campaignId = Long.parseLong(args[1]);
        int port = Integer.parseInt(args[2]);
        int connections = Integer.parseInt(args[3]);
        Thread sampler = new Thread(() -> {
            while (true) {
                MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
                System.out.println("heap " + heap.getUsed() + " " + heap.getCommitted());
                System.out.flush();
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "heap-sampler");
        sampler.setDaemon(true);
        sampler.start();
        try (HikariDataSource ds = BenchDatabase.connect(database, 10);
             PipelineHarness h = new PipelineHarness(ds, Clock.systemUTC(), port, connections, Duration.ofDays(1),
                     SendSettingsFixtures.defaults("bench-relay", 0), SchedulerConfig.defaults("bench-drain"))) {
            long start = System.nanoTime();
            int ticks = 0;
            while (h.campaigns.get(campaignId).status() != CampaignStatus.COMPLETED && ticks < 3) {
                h.scheduler.tick();
                ticks++;
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.println("done " + Recipients.count(ds, campaignId, "sent") + " " + seconds);
        }
    }
}
