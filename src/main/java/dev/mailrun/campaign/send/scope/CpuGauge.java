package dev.mailrun.campaign.send.scope;

import dev.mailrun.campaign.store.RunSecondTable.Cpu;

/**
 * The worker's CPU as a run reads it once a second, for {@code campaign status} to tell a worker
 * too busy to keep up with the rate ({@link dev.mailrun.campaign.send.record.RunSeconds}). {@link #OS}
 * gives the JVM's own figures; tests give their own reading.
 */
@FunctionalInterface
public interface CpuGauge {

    /** The latest reading; called from the run's flush thread, so it must be quick. */
    Cpu read();

    /** The JVM's figures, sampled once a second on a thread of their own ({@link OsCpu}). */
    CpuGauge OS = OsCpu.SHARED;
}
