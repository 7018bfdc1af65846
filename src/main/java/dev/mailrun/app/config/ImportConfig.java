package dev.mailrun.app.config;

import dev.mailrun.campaign.importing.ImportSettings;
import java.nio.file.Path;
import java.util.Optional;

/** Optional address hygiene at import, and the import's size limits. */
public record ImportConfig(boolean rejectDisposable, boolean rejectRole, Optional<Path> disposableList, ImportSettings settings) {

    public ImportConfig {
        disposableList.ifPresent(p -> {
            if (!java.nio.file.Files.isReadable(p)) {
                throw ConfigException.invalid("import.disposable-list", "file " + p + " cannot be read");
            }
        });
    }
}
