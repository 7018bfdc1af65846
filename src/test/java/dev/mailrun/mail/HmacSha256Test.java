package dev.mailrun.mail;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class HmacSha256Test {

    @Test
    void gives_the_rfc_4231_test_vector() {
        // RFC 4231, test case 2: key "Jefe", data "what do ya want for nothing?".
        byte[] mac = new HmacSha256("Jefe".getBytes(StandardCharsets.US_ASCII)).start()
                .doFinal("what do ya want for nothing?".getBytes(StandardCharsets.US_ASCII));

        assertThat(HexFormat.of().formatHex(mac))
                .isEqualTo("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    }

    @Test
    void many_threads_at_once_each_get_the_same_answer() throws Exception {
        HmacSha256 hmac = new HmacSha256("0123456789abcdef".getBytes(StandardCharsets.US_ASCII));
        String expected = HexFormat.of().formatHex(hmac.start().doFinal("payload".getBytes(StandardCharsets.US_ASCII)));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Callable<String>> calls = IntStream.range(0, 2_000).<Callable<String>>mapToObj(i -> () ->
                    HexFormat.of().formatHex(hmac.start().doFinal("payload".getBytes(StandardCharsets.US_ASCII)))).toList();
            for (Future<String> f : pool.invokeAll(calls)) {
                assertThat(f.get()).isEqualTo(expected);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
