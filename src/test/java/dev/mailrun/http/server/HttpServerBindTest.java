package dev.mailrun.http.server;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class HttpServerBindTest {

    @Test
    void a_port_in_use_says_another_worker_or_serve_may_hold_it() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            assertThatThrownBy(() -> HttpServer.start(List.of(Listener.open("admin", "127.0.0.1", port, List.of())),
                    Duration.ofSeconds(2), HttpLimits.DEFAULTS))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("127.0.0.1:" + port)
                    .hasMessageContaining("the port is in use; another mailrun worker or serve (or another program) may hold it");
        }
    }
}
