package dev.mailrun.campaign.audience.signup;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Sends the messages of a sign-up, one at a time, outside any campaign. */
public interface SignupMailer {

    /** The confirmation message: {@code url} confirms {@code lists} until {@code expires}. */
    void confirmation(String address, Optional<String> name, List<String> lists, String language, String url, Instant expires);

    /** The welcome message, from {@code template}, after {@code lists} were confirmed. */
    void welcome(String address, Optional<String> name, List<String> lists, String language, String template);
}
