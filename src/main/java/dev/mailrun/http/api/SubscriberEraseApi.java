package dev.mailrun.http.api;

import dev.mailrun.campaign.audience.Erasure;
import dev.mailrun.campaign.model.ApiScope;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code POST /subscribers/{id}/erase}: as {@code subscribers erase} (docs/ERASURE.md), audited under the token's name. */
final class SubscriberEraseApi {

    private final Erasure erasure;

    SubscriberEraseApi(ApiServices services) {
        this.erasure = services.erasure();
    }

    List<Operation> operations() {
        return List.of(Operation.write("POST", "/subscribers/{id}/erase", ApiScope.ADMIN, Operation.Body.NONE,
                "subscriber.erase", this::erase));
    }

    private ApiResponse erase(ApiRequest r) throws Exception {
        long id = r.id("id");
        Erasure.Erased erased = erasure.eraseSubscriber(id, Erasure.Via.API, "api:" + r.caller().name())
                .orElseThrow(() -> ApiException.notFound("no subscriber " + id));
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("id", id);
        answer.put("erased", true);
        answer.put("recipients", erased.recipients());
        answer.put("tracking", erased.tracking());
        return ApiResponse.json(200, answer);
    }
}
