package dev.mailrun.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.events.delivery.Signer;
import dev.mailrun.events.delivery.SigningSecret;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Signatures as the Standard Webhooks specification computes them, checked against its published test vector. */
class SignerTest {

    @Test
    void the_signature_matches_the_specifications_test_vector() {
        SigningSecret secret = SigningSecret.parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
        String sig = Signer.sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330L,
                "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8));
        assertThat(sig).isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    @Test
    void a_secret_not_in_the_whsec_format_is_refused_without_quoting_it() {
        assertThatThrownBy(() -> SigningSecret.parse("hunter2-secret-value")).hasMessageNotContaining("hunter2")
                .hasMessageContaining("whsec_");
        assertThatThrownBy(() -> SigningSecret.parse("whsec_c2hvcnQ=")).hasMessageContaining("24 to 64 bytes");
        assertThat(SigningSecret.parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")).hasToString("whsec_***");
    }
}
