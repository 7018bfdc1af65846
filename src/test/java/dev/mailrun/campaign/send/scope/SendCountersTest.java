package dev.mailrun.campaign.send.scope;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mailrun.scheduler.Metadata;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SendCountersTest {

    /** The counters of a campaign as the task table holds them (written before the counters had their present name). */
    private static final String STORED = """
            {"campaignId":7,"progress":{"campaignId":7,"sent":120,"failed":4,"retried":9,"released":3,"suppressed":2,\
            "hardBounces":1,"recent":"SSFS","rateBaseAttempts":20,"rateBaseHardBounces":1},"timebox":{"samples":3}}""";

    @Test
    void counters_stored_in_existing_task_metadata_load_and_are_written_back_in_the_same_shape() throws Exception {
        Metadata metadata = Metadata.of((ObjectNode) new ObjectMapper().readTree(STORED));
        String before = metadata.json().get("progress").toString();

        SendCounters counters = metadata.get(SendCounters.METADATA_KEY, SendCounters.class).orElseThrow();

        assertThat(counters).isEqualTo(new SendCounters(7, 120, 4, 9, 3, 2, 1, "SSFS", 20, 1));
        assertThat(counters.attemptsForRate()).isEqualTo(104);
        metadata.putValue(SendCounters.METADATA_KEY, counters);
        assertThat(metadata.json().get("progress").toString()).isEqualTo(before);
        List<String> fields = new ArrayList<>();
        metadata.json().get("progress").fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("campaignId", "sent", "failed", "retried", "released", "suppressed",
                "hardBounces", "recent", "rateBaseAttempts", "rateBaseHardBounces");
    }
}
