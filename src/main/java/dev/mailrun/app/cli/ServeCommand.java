package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import dev.mailrun.app.HttpEndpoint;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;

@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Serve only the unsubscribe endpoint (http.bind:http.port) until SIGTERM or SIGINT.")
final class ServeCommand extends ContextCommand {

    @Override
    int run(Services s) throws Exception {
        if (s.config().unsubscribe().httpPort().isEmpty()) {
            throw new UsageException("http.port must be set for serve");
        }
        CountDownLatch stop = new CountDownLatch(1);
        try (HttpEndpoint endpoint = HttpEndpoint.start(s)) {
            Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown, "mailrun-serve-stop"));
            err().println("serving unsubscribe requests on " + s.config().httpBind() + ":" + endpoint.port().orElseThrow());
            stop.await();
        }
        return Cli.OK;
    }
}
