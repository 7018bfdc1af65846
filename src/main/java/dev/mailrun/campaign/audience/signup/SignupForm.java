package dev.mailrun.campaign.audience.signup;

import java.util.List;
import java.util.Optional;

/**
 * One sign-up as a form sent it: the address, an optional name, the public lists chosen (by id) and,
 * when {@code signup.store-ip} is on, the client's address.
 */
public record SignupForm(String email, Optional<String> name, List<Long> listIds, Optional<String> clientIp) {

    public SignupForm {
        listIds = List.copyOf(listIds);
    }
}
