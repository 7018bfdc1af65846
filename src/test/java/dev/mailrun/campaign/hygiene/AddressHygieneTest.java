package dev.mailrun.campaign.hygiene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.campaign.model.EmailAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AddressHygieneTest {

    private final AddressHygiene both = AddressHygiene.withBundledLists(true, true, Optional.empty());

    @Test
    void a_bundled_disposable_domain_and_its_subdomains_are_rejected() {
        assertThat(both.rejectReason(EmailAddress.of("someone@mailinator.com"))).contains("disposable domain");
        assertThat(both.rejectReason(EmailAddress.of("someone@inbox.Mailinator.com"))).contains("disposable domain");
        assertThat(both.rejectReason(EmailAddress.of("someone@notmailinator.com"))).isEmpty();
    }

    @Test
    void role_addresses_are_rejected_whatever_their_case_or_tag() {
        assertThat(both.rejectReason(EmailAddress.of("postmaster@example.com"))).contains("role address");
        assertThat(both.rejectReason(EmailAddress.of("No-Reply@example.com"))).contains("role address");
        assertThat(both.rejectReason(EmailAddress.of("abuse+lists@example.com"))).contains("role address");
        assertThat(both.rejectReason(EmailAddress.of("mailer-daemon@example.com"))).contains("role address");
    }

    @Test
    void info_and_ordinary_addresses_are_accepted() {
        assertThat(both.rejectReason(EmailAddress.of("info@example.com"))).isEmpty();
        assertThat(both.rejectReason(EmailAddress.of("ann.lee@example.com"))).isEmpty();
        assertThat(both.rejectReason(EmailAddress.of("postmasters@example.com"))).isEmpty();
    }

    @Test
    void each_check_applies_only_when_its_flag_is_on() {
        AddressHygiene off = AddressHygiene.withBundledLists(false, false, Optional.empty());
        AddressHygiene roleOnly = AddressHygiene.withBundledLists(false, true, Optional.empty());

        assertThat(off.rejectReason(EmailAddress.of("admin@mailinator.com"))).isEmpty();
        assertThat(roleOnly.rejectReason(EmailAddress.of("ann@mailinator.com"))).isEmpty();
        assertThat(roleOnly.rejectReason(EmailAddress.of("admin@example.com"))).contains("role address");
    }

    @Test
    void an_operator_list_extends_the_bundled_one(@TempDir Path dir) throws Exception {
        Path list = dir.resolve("more.txt");
        Files.writeString(list, "# our additions\nthrowaway.example  # seen in March\n\nBÜCHER-temp.example\n");
        AddressHygiene hygiene = AddressHygiene.withBundledLists(true, false, Optional.of(list));

        assertThat(hygiene.rejectReason(EmailAddress.of("x@throwaway.example"))).contains("disposable domain");
        assertThat(hygiene.rejectReason(EmailAddress.of("x@bücher-temp.example"))).contains("disposable domain");
        assertThat(hygiene.rejectReason(EmailAddress.of("x@yopmail.com"))).contains("disposable domain");
    }

    @Test
    void a_missing_operator_list_fails_with_its_path() {
        Path missing = Path.of("/nonexistent/disposable.txt");

        assertThatThrownBy(() -> AddressHygiene.withBundledLists(true, false, Optional.of(missing)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("import.disposable-list: cannot read /nonexistent/disposable.txt");
    }

    @Test
    void lists_can_be_given_directly() {
        AddressHygiene hygiene = new AddressHygiene(true, true, Set.of("@temp.example"), Set.of("team"));

        assertThat(hygiene.rejectReason(EmailAddress.of("a@sub.temp.example"))).contains("disposable domain");
        assertThat(hygiene.rejectReason(EmailAddress.of("team@example.com"))).contains("role address");
        assertThat(hygiene.rejectReason(EmailAddress.of("postmaster@example.com"))).isEmpty();
    }
}
