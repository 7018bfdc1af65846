package dev.mailrun.app.cli;

/** Removes a hook once its command ended normally; during JVM shutdown that is not allowed and not needed. */
final class ShutdownHooks {

    private ShutdownHooks() {}

    static void remove(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The hook is running or about to: it is what stops us.
        }
    }
}
