package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import dev.mailrun.campaign.access.ApiTokens;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.campaign.model.CampaignException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "api-token", mixinStandardHelpOptions = true, description = "Tokens of the HTTP API (/api/v1 on the admin listener).",
        subcommands = {ApiTokenCommand.Create.class, ApiTokenCommand.ListTokens.class, ApiTokenCommand.Revoke.class})
final class ApiTokenCommand extends GroupCommand {

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Create a token and print it once on stdout; only its SHA-256 is stored.",
            modelTransformer = ApiTokenCommand.Scopes.class)
    static final class Create extends ContextCommand {
        @Option(names = "--name", required = true, paramLabel = "NAME",
                description = "Who holds it (a-z, 0-9, '.', '_', '-'); shown in the audit trail.") String name;
        @Option(names = "--scope", required = true, paramLabel = "SCOPE[,SCOPE…]",
                description = "What it may do: scopes, comma-separated.") String scopes;

        @Override
        int run(Services s) throws Exception {
            String token;
            try {
                Set<ApiScope> parsed = ApiScope.parseList(scopes);
                token = s.apiTokens().create(name, parsed);
            } catch (CampaignException | IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
            out().println(token);
            err().println("token " + name + " created; it is shown only this once");
            return Cli.OK;
        }
    }

    /** Adds the scopes to the description from their one list, so the help cannot fall behind it. */
    static final class Scopes implements CommandLine.IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            List<String> description = new ArrayList<>(List.of(spec.usageMessage().description()));
            description.add("Scopes: " + Arrays.stream(ApiScope.values()).map(ApiScope::text).collect(Collectors.joining(", "))
                    + "; " + ApiScope.ADMIN.text() + " holds every other.");
            spec.usageMessage().description(description.toArray(String[]::new));
            return spec;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List tokens: names, scopes, created, last used (never the token).")
    static final class ListTokens extends ContextCommand {
        @Override
        int run(Services s) throws Exception {
            out().printf("%-24s %-24s %-24s %-24s %s%n", "NAME", "CREATED", "LAST USED", "REVOKED", "SCOPES");
            for (ApiTokens.Listed t : s.apiTokens().list()) {
                out().printf("%-24s %-24s %-24s %-24s %s%n", t.name(), t.createdAt(), shown(t.lastUsedAt()), shown(t.revokedAt()),
                        ApiScope.join(t.scopes()));
            }
            return Cli.OK;
        }

        private static String shown(Optional<Instant> at) {
            return at.map(Instant::toString).orElse("-");
        }
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true, description = "Revoke a token: every request with it is refused from now on.")
    static final class Revoke extends ContextCommand {
        @Parameters(paramLabel = "NAME", description = "Token name, as api-token list shows it.") String name;

        @Override
        int run(Services s) throws Exception {
            try {
                s.apiTokens().revoke(name);
            } catch (CampaignException e) {
                throw new UsageException(e.getMessage());
            }
            out().println("token " + name + " revoked");
            return Cli.OK;
        }
    }
}
