package dev.mailrun.mail.template;

import io.pebbletemplates.pebble.error.LoaderException;
import io.pebbletemplates.pebble.loader.Loader;
import java.io.Reader;
import java.io.StringReader;
import java.util.Map;

/**
 * Serves a template's files from memory, so Pebble sees exactly the files that were read and
 * validated, named as the author knows them ({@code body.html}), and nothing else on disk.
 */
final class SourceLoader implements Loader<String> {

    private final Map<String, String> sources;

    SourceLoader(Map<String, String> sources) {
        this.sources = Map.copyOf(sources);
    }

    @Override
    public Reader getReader(String name) {
        String source = sources.get(name);
        if (source == null) {
            throw new LoaderException(null, "no file named " + name + " in this template");
        }
        return new StringReader(source);
    }

    @Override
    public void setCharset(String charset) {
        // Sources are already decoded strings.
    }

    @Override
    public void setPrefix(String prefix) {
        // Names are the file names inside the template directory.
    }

    @Override
    public void setSuffix(String suffix) {
        // Names are the file names inside the template directory.
    }

    @Override
    public String resolveRelativePath(String relativePath, String anchorPath) {
        return relativePath;
    }

    @Override
    public String createCacheKey(String name) {
        return name;
    }

    @Override
    public boolean resourceExists(String name) {
        return sources.containsKey(name);
    }
}
