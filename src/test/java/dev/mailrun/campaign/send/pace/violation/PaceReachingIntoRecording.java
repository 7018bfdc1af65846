package dev.mailrun.campaign.send.pace.violation;

import dev.mailrun.campaign.send.record.ResultBuffer;

/**
 * Breaks the stage rule on purpose, for SendStagesTest: a pacing class that uses the recording
 * stage above it. It lives in the test sources, so the rule checked on the main classes never sees it.
 */
public final class PaceReachingIntoRecording {

    private PaceReachingIntoRecording() {
    }

    public static Class<?> buffer() {
        return ResultBuffer.class;
    }
}
