package dev.mailrun.app.config;

import java.nio.file.Path;
import java.util.Optional;

/** Optional address hygiene at import. */
public record ImportConfig(boolean rejectDisposable, boolean rejectRole, Optional<Path> disposableList) {

    public ImportConfig {
        disposableList.ifPresent(p -> {
            if (!java.nio.file.Files.isReadable(p)) {
                throw ConfigException.invalid("import.disposable-list", "file " + p + " cannot be read");
            }
        });
    }
}
