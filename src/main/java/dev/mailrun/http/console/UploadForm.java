package dev.mailrun.http.console;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.MultiPart;
import org.eclipse.jetty.http.MultiPartConfig;
import org.eclipse.jetty.http.MultiPartFormData;
import org.eclipse.jetty.server.Request;

/**
 * A {@code multipart/form-data} form with one file, as a browser sends a file input without script.
 * Jetty parses it as it arrives; the file part goes to a temporary file on disk (only the small
 * fields stay in memory), at most {@code maxBytes} in all, so a large CSV never sits in memory and
 * reaches the importer as the file the API's upload gives it.
 */
final class UploadForm {

    /** The form's text fields (the CSRF token among them) and its file, on disk; the caller deletes the file. */
    record Received(Map<String, String> fields, Optional<Path> file) {}

    @FunctionalInterface
    interface Then {
        void accept(Received received, Throwable failure);
    }

    private static final int MAX_PARTS = 8;
    private static final long MAX_FIELD = 4_096;

    private final long maxBytes;

    UploadForm(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    long maxBytes() {
        return maxBytes;
    }

    static boolean isUpload(Request request) {
        String type = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
        return type != null && type.regionMatches(true, 0, "multipart/form-data", 0, "multipart/form-data".length());
    }

    /** Reads the form; {@code then} runs once, with the form or the failure (too large, malformed, broken). */
    void read(Request request, String fileField, Then then) throws Exception {
        Path dir = Files.createTempDirectory("mailrun-console-upload");
        MultiPartConfig config = new MultiPartConfig.Builder().location(dir).maxParts(MAX_PARTS).maxSize(maxBytes)
                .maxPartSize(maxBytes).maxMemoryPartSize(MAX_FIELD).build();
        MultiPartFormData.from(request, request, request.getHeaders().get(HttpHeader.CONTENT_TYPE), config)
                .whenComplete((parts, failure) -> {
                    if (failure != null) {
                        deleteQuietly(dir);
                        then.accept(null, failure);
                        return;
                    }
                    try (parts) {
                        Map<String, String> fields = new LinkedHashMap<>();
                        Optional<Path> file = Optional.empty();
                        for (MultiPart.Part part : parts) {
                            if (fileField.equals(part.getName()) && part.getFileName() != null) {
                                Path target = Files.createTempFile("mailrun-console-upload", ".csv");
                                part.writeTo(target);
                                file = Optional.of(target);
                            } else if (part.getFileName() == null && part.getLength() <= MAX_FIELD) {
                                fields.putIfAbsent(part.getName(), part.getContentAsString(java.nio.charset.StandardCharsets.UTF_8));
                            }
                        }
                        then.accept(new Received(fields, file), null);
                    } catch (Exception e) {
                        then.accept(null, e);
                    } finally {
                        deleteQuietly(dir);
                    }
                });
    }

    static void deleteQuietly(Path path) {
        try {
            if (Files.isDirectory(path)) {
                try (var children = Files.list(path)) {
                    children.forEach(UploadForm::deleteQuietly);
                }
            }
            Files.deleteIfExists(path);
        } catch (Exception ignored) {
            // a temporary file: the system cleans it up
        }
    }
}
