package dev.mailrun.scheduler;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;

/** The last failure of a task, kept in {@code task.error_log}. */
public record ErrorLog(String type, String message, String stackTrace, String runToken, Instant at) {

    static final int MAX_STACK_TRACE_CHARS = 16_000;

    static ErrorLog of(Throwable failure, String runToken, Instant at) {
        return new ErrorLog(failure.getClass().getName(), String.valueOf(failure.getMessage()),
                stackTraceOf(failure), runToken, at);
    }

    static String stackTraceOf(Throwable failure) {
        StringWriter out = new StringWriter();
        failure.printStackTrace(new PrintWriter(out));
        String trace = out.toString();
        return trace.length() <= MAX_STACK_TRACE_CHARS ? trace : trace.substring(0, MAX_STACK_TRACE_CHARS) + "\n\t…";
    }

    /** One line for {@code task_run.error} followed by the stack trace. */
    String describe() {
        return type + ": " + message + "\n" + stackTrace;
    }
}
